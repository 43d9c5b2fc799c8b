// The published packages, one folder each under packages/: the client (secmon-api), the contract kit
// (secmon-contract), the mock (secmon-mock) and the MSW handlers (secmon-msw). Each folder holds its
// package.json, README, src/ and test/; this builds its `dist/` and packs it. Node will not strip types
// inside node_modules, so every package ships JavaScript: esbuild bundles our own modules (the
// workspace packages it imports, common/, the bundled document) into each package and leaves its npm
// dependencies as imports. In the repository the packages' exports point at their TypeScript under
// the `secmon-source` condition; the packed package.json leaves that condition out. `npm run pack` and the
// package tests (test/packages/) go through here.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { committed, root } from './pipeline.ts';

/** The exports condition under which the repository resolves a package to its TypeScript. */
export const SOURCE_CONDITION = 'secmon-source';

export interface PackageSpec {
  /** The folder that holds the package.json, relative to the repository root. */
  dir: string;
  /** Output name (without .js) → source, relative to the repository root. */
  entries: Record<string, string>;
  platform: 'neutral' | 'node';
  /** Files copied into dist/ beside the code. */
  assets: Record<string, string>;
  /** A tsconfig (in `dir`) that emits the package's declarations into dist/types. */
  declarations?: string;
}

export const PACKAGES = {
  client: {
    dir: 'packages/api',
    entries: {
      index: 'packages/api/src/index.ts',
      client: 'packages/api/src/client.ts',
      webhooks: 'packages/api/src/webhooks.ts',
      types: 'packages/api/src/types.ts',
    },
    platform: 'neutral',
    assets: { 'openapi.json': committed.json, 'openapi.yaml': committed.yaml, 'types/generated/schema.d.ts': committed.types },
    declarations: 'tsconfig.types.json',
  },
  contract: {
    dir: 'packages/contract',
    entries: { cli: 'packages/contract/src/cli.ts' },
    platform: 'node',
    assets: {},
  },
  mock: {
    dir: 'packages/mock',
    entries: {
      main: 'packages/mock/src/main.ts',
      'events-cli': 'packages/mock/src/events-cli.ts',
      'exit-with-parent': 'packages/mock/src/exit-with-parent.ts',
      'seed-faker': 'packages/mock/src/seed-faker.ts',
    },
    platform: 'node',
    assets: { 'openapi.yaml': committed.yaml, 'openapi.json': committed.json },
  },
  msw: {
    dir: 'packages/msw',
    entries: { index: 'packages/msw/src/index.ts' },
    platform: 'neutral',
    assets: { 'types/generated/schema.d.ts': committed.types },
    declarations: 'tsconfig.types.json',
  },
} as const satisfies Record<string, PackageSpec>;

export type PackageName = keyof typeof PACKAGES;

export interface PackageManifest {
  name: string;
  version: string;
  engines: { node: string };
  exports: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  files: string[];
  bin?: Record<string, string>;
}

export const manifestOf = (name: PackageName): PackageManifest =>
  JSON.parse(readFileSync(join(root, PACKAGES[name].dir, 'package.json'), 'utf8')) as PackageManifest;

const WORKSPACE = readdirSync(join(root, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => {
    const dir = join('packages', entry.name);
    const { name, exports } = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as PackageManifest;
    return { name, dir, exports };
  });

const workspacePackageOf = (specifier: string) => WORKSPACE.find(({ name }) => specifier === name || specifier.startsWith(`${name}/`));

// Dependencies stay imports, so they are installed (and deduplicated) by the user's npm; the
// workspace packages are our own modules and are bundled like any other.
const dependenciesStayImports: Plugin = {
  name: 'dependencies-stay-imports',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, ({ path }) => (workspacePackageOf(path) ? undefined : { path, external: true }));
  },
};

// In the repository the bundled document lies in generated/; in a package it lies beside the code.
const documentFilesBesideCode: Plugin = {
  name: 'document-files-beside-code',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]common[\\/]document-files\.ts$/ }, () => ({
      loader: 'ts',
      contents: [
        "import { fileURLToPath } from 'node:url';",
        "export const bundledJsonPath = fileURLToPath(new URL('./openapi.json', import.meta.url));",
        "export const bundledYamlPath = fileURLToPath(new URL('./openapi.yaml', import.meta.url));",
      ].join('\n'),
    }));
  },
};

/** Builds `<dir>/dist` of one package from the current sources and generated files. */
export async function buildPackage(name: PackageName): Promise<string> {
  const spec: PackageSpec = PACKAGES[name];
  const packageDir = join(root, spec.dir);
  const dist = join(packageDir, 'dist');
  rmSync(dist, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(Object.entries(spec.entries).map(([out, source]) => [out, join(root, source)])),
    outdir: dist,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: spec.platform,
    // Node 20.19 is the oldest line every package supports (`engines`); browsers of the same age.
    target: spec.platform === 'node' ? 'node20.19' : ['node20.19', 'es2022'],
    conditions: [SOURCE_CONDITION],
    plugins: [dependenciesStayImports, documentFilesBesideCode],
    logLevel: 'warning',
    legalComments: 'none',
  });
  for (const [target, source] of Object.entries(spec.assets)) {
    mkdirSync(dirname(join(dist, target)), { recursive: true });
    copyFileSync(source, join(dist, target));
  }
  if (spec.declarations) emitDeclarations(packageDir, spec.declarations);
  return dist;
}

function emitDeclarations(packageDir: string, tsconfig: string): void {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(packageDir, tsconfig)], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`declarations of ${relative(root, packageDir)} failed:\n${result.stdout}${result.stderr}`);
  // tsc rewrites `.ts` import specifiers in JavaScript output only (rewriteRelativeImportExtensions),
  // not in declarations; a consumer's tsc rejects `.ts` specifiers there (TS5097).
  const typesDir = join(packageDir, 'dist/types');
  for (const file of readdirSync(typesDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts'))) {
    const path = join(typesDir, file);
    const text = readFileSync(path, 'utf8');
    const named = text.replace(/(from\s+')(secmon-[^']+)'/g, (whole, from: string, specifier: string) => {
      const declaration = declarationOf(specifier, typesDir);
      return declaration ? `${from}${relativeSpecifier(dirname(path), declaration)}'` : whole;
    });
    writeFileSync(path, named.replace(/(from\s+'\.{1,2}\/[^']*?)(?:\.d)?\.ts'/g, "$1.js'"));
  }
}

// A workspace package's module in another's declarations: its declaration emitted beside them (tsc
// emits what it reaches), so the packed declarations need no package they do not depend on.
function declarationOf(specifier: string, typesDir: string): string | undefined {
  const target = workspacePackageOf(specifier);
  if (!target) return undefined;
  const subpath = `.${specifier.slice(target.name.length)}`;
  const source = sourceOf(target.exports, subpath);
  if (!source) return undefined;
  const declaration = join(typesDir, target.dir, source.replace(/\.ts$/, '.d.ts'));
  if (!existsSync(declaration)) throw new Error(`declarations import ${specifier}, whose declaration tsc did not emit`);
  return declaration.replace(/\.d\.ts$/, '.js');
}

const sourceTarget = (value: unknown) => (value as Record<string, string | undefined> | undefined)?.[SOURCE_CONDITION];

function sourceOf(exports: Record<string, unknown>, subpath: string): string | undefined {
  const exact = sourceTarget(exports[subpath]);
  if (exact) return exact;
  for (const [key, value] of Object.entries(exports)) {
    const [prefix, suffix = ''] = key.split('*');
    const pattern = sourceTarget(value);
    if (key.includes('*') && pattern && subpath.startsWith(prefix!) && subpath.endsWith(suffix)) {
      return pattern.replace('*', subpath.slice(prefix!.length, subpath.length - suffix.length));
    }
  }
  return undefined;
}

const relativeSpecifier = (from: string, to: string) => {
  const path = relative(from, to);
  return path.startsWith('.') ? path : `./${path}`;
};

/** The package.json as published: the exports without the `secmon-source` condition, which only the repository resolves. */
export function publishedManifest(manifest: PackageManifest): PackageManifest {
  const exports = Object.fromEntries(
    Object.entries(manifest.exports)
      .map(([key, value]): [string, unknown] => {
        if (typeof value !== 'object' || value === null) return [key, value];
        const { [SOURCE_CONDITION]: _, ...rest } = value as Record<string, unknown>;
        return [key, rest];
      })
      .filter(([, value]) => typeof value !== 'object' || Object.keys(value as object).length > 0),
  );
  return { ...manifest, exports };
}

/** `npm pack` of a built package into `destination`; returns the tarball's path. */
export function packPackage(name: PackageName, destination: string): string {
  mkdirSync(destination, { recursive: true });
  const packageDir = join(root, PACKAGES[name].dir);
  const staging = mkdtempSync(join(tmpdir(), `pack-${name}-`));
  writeFileSync(join(staging, 'package.json'), `${JSON.stringify(publishedManifest(manifestOf(name)), null, 2)}\n`);
  copyFileSync(join(packageDir, 'README.md'), join(staging, 'README.md'));
  cpSync(join(packageDir, 'dist'), join(staging, 'dist'), { recursive: true });
  const result = spawnSync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: staging, encoding: 'utf8' });
  rmSync(staging, { recursive: true, force: true });
  if (result.status !== 0) throw new Error(`npm pack ${name} failed:\n${result.stderr}`);
  const [{ filename }] = JSON.parse(result.stdout) as [{ filename: string }];
  return join(destination, filename);
}

if (import.meta.main) {
  const destination = join(root, 'dist/packages');
  for (const name of Object.keys(PACKAGES) as PackageName[]) {
    await buildPackage(name);
    console.log(`${name}: ${relative(root, packPackage(name, destination))}`);
  }
}
