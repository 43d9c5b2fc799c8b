// What every package holds, as packed with `npm pack`: its manifest, the imports of its built code,
// the files of its tarball, and what publint makes of it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { outsiderEnv, run } from '../../scripts/outsider.ts';
import { manifestOf, PACKAGES, type PackageName } from '../../scripts/packages.ts';
import { root } from '../../scripts/pipeline.ts';
import { document } from './examples.ts';
import { rootManifest } from './installed.ts';
import { packedTarballs, type Tarballs } from './tarballs.ts';

const NAMES = Object.keys(PACKAGES) as PackageName[];

/** Dependencies a package takes at an older major than the repository, and why. */
const OLDER_MAJOR: { [name in PackageName]?: Record<string, string> } = {
  contract: { undici: 'undici 8 needs Node 22.19; the kit runs on Node 20.19, where undici 7 is the newest that does' },
};

let tarballs: Tarballs;
beforeAll(async () => {
  tarballs = await packedTarballs();
}, 300_000);

describe('every package', () => {
  it.each(NAMES)('%s: version is the document version, engines and dependency ranges are the repository’s own', (name) => {
    const manifest = manifestOf(name);
    expect(manifest.version).toBe(document.info.version);
    expect(manifest.engines.node).toBe('>=20.19.0');
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
      const own = rootManifest.dependencies[dependency] ?? rootManifest.devDependencies[dependency];
      if (OLDER_MAJOR[name]?.[dependency]) continue;
      expect(own, dependency).toBe(range);
    }
  });

  // A package may take an older major than the repository only where the repository's needs a newer
  // Node than the packages support; the repository then installs that major under the package, so its
  // tests run the version the package ships.
  it.each(
    (Object.entries(OLDER_MAJOR) as [PackageName, Record<string, string>][]).flatMap(([name, deps]) =>
      Object.entries(deps).map(([dependency, why]) => [name, dependency, why] as const),
    ),
  )('%s takes an older major of %s (%s), installed under it in the repository', (name, dependency) => {
    const range = manifestOf(name).dependencies![dependency]!;
    const own = rootManifest.dependencies[dependency] ?? rootManifest.devDependencies[dependency];
    expect(range).not.toBe(own);
    const nested = JSON.parse(readFileSync(join(root, PACKAGES[name].dir, 'node_modules', dependency, 'package.json'), 'utf8')) as {
      version: string;
      engines: { node: string };
    };
    expect(`^${nested.version.split('.')[0]}.`, 'the installed major').toBe(range.slice(0, range.indexOf('.') + 1));
    const floor = /^>=(\d+)\.(\d+)/.exec(nested.engines.node)!.slice(1).map(Number);
    expect(floor[0]! * 1000 + floor[1]!, nested.engines.node).toBeLessThanOrEqual(20 * 1000 + 19);
    const rootsFloor = JSON.parse(readFileSync(join(root, 'node_modules', dependency, 'package.json'), 'utf8')).engines.node as string;
    expect(rootsFloor, 'the repository’s version needs a newer Node than 20.19').not.toMatch(/^>=(18|20)\./);
  });

  it.each(NAMES)('%s: the built code imports only node: built-ins and declared dependencies', (name) => {
    const manifest = manifestOf(name);
    const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const dist = join(root, PACKAGES[name].dir, 'dist');
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
    const specifiers = files.flatMap((file) =>
      [
        ...readFileSync(join(dist, file), 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*"([^"]+)"|import\("([^"]+)"\)/g),
      ].map((match) => match[1] ?? match[2]!),
    );
    const bare = specifiers.filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'));
    const packageOf = (specifier: string) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
    expect(bare.length).toBeGreaterThan(0);
    expect([...new Set(bare.map(packageOf))].filter((dependency) => !declared.has(dependency))).toEqual([]);
  });

  it.each(NAMES)('%s: the tarball holds only dist/, the README and package.json', async (name) => {
    const listing = await run('tar', ['-tzf', tarballs[name]], { cwd: root });
    const files = listing.output.trim().split('\n');
    expect(files).toContain('package/README.md');
    expect(files).toContain('package/package.json');
    expect(files.filter((file) => !/^package\/(dist\/.+|README\.md|package\.json)$/.test(file))).toEqual([]);
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
  });

  // Its handlers run the application core over the in-memory store; nothing of the server's HTTP or
  // SQL layers may ship with it, not even as declarations.
  it('msw: the tarball declares nothing of the server or its stores, and carries the core', async () => {
    const files = (await run('tar', ['-tzf', tarballs.msw], { cwd: root })).output.trim().split('\n');
    expect(files.filter((file) => /\/(server|store)\//.test(file))).toEqual([]);
    expect(files.some((file) => file.startsWith('package/dist/types/packages/core/src/'))).toBe(true);
  });

  it.each(NAMES)('%s: publint --strict finds nothing', async (name) => {
    const result = await run(process.execPath, [join(root, 'node_modules/publint/src/cli.js'), tarballs[name], '--strict'], {
      cwd: root,
      env: { ...outsiderEnv(process.execPath) },
    });
    expect(result.output).toContain('All good!');
    expect(result.code).toBe(0);
  });
});
