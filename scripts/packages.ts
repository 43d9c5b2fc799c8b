// The published packages: the client (`lib/` → secmon-api), the contract kit (`test/contract/` →
// secmon-contract), the mock (`mock/` → secmon-mock) and the MSW handlers (`mock/msw/` → secmon-msw). Each folder holds its package.json and
// README; this builds its `dist/` and packs it. Node will not strip types inside node_modules, so
// every package ships JavaScript: esbuild bundles our own modules (lib/, the bundled document) into
// each package and leaves its npm dependencies as imports. `npm run pack` and the package tests
// (test/packages/) go through here.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { committed, root } from './pipeline.ts';

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
    dir: 'lib',
    entries: { index: 'lib/index.ts', client: 'lib/client.ts', webhooks: 'lib/webhooks.ts', types: 'lib/types.ts' },
    platform: 'neutral',
    assets: { 'openapi.json': committed.json, 'openapi.yaml': committed.yaml, 'types/generated/schema.d.ts': committed.types },
    declarations: 'tsconfig.types.json',
  },
  contract: {
    dir: 'test/contract',
    entries: { cli: 'test/contract/cli.ts' },
    platform: 'node',
    assets: {},
  },
  mock: {
    dir: 'mock',
    entries: {
      main: 'mock/main.ts',
      'events-cli': 'mock/events-cli.ts',
      'exit-with-parent': 'mock/exit-with-parent.ts',
      'seed-faker': 'mock/seed-faker.ts',
    },
    platform: 'node',
    assets: { 'openapi.yaml': committed.yaml, 'openapi.json': committed.json },
  },
  msw: {
    dir: 'mock/msw',
    entries: { index: 'mock/msw/index.ts' },
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
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  files: string[];
  bin?: Record<string, string>;
}

export const manifestOf = (name: PackageName): PackageManifest =>
  JSON.parse(readFileSync(join(root, PACKAGES[name].dir, 'package.json'), 'utf8')) as PackageManifest;

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
    // Dependencies stay imports, so they are installed (and deduplicated) by the user's npm.
    packages: 'external',
    plugins: [documentFilesBesideCode],
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
    writeFileSync(path, text.replace(/(from\s+'\.{1,2}\/[^']*?)(?:\.d)?\.ts'/g, "$1.js'"));
  }
}

/** `npm pack` of a built package into `destination`; returns the tarball's path. */
export function packPackage(name: PackageName, destination: string): string {
  mkdirSync(destination, { recursive: true });
  const result = spawnSync('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: join(root, PACKAGES[name].dir),
    encoding: 'utf8',
  });
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
