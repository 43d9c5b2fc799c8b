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
      expect(rootManifest.dependencies[dependency] ?? rootManifest.devDependencies[dependency], dependency).toBe(range);
    }
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

  it.each(NAMES)('%s: publint --strict finds nothing', async (name) => {
    const result = await run(process.execPath, [join(root, 'node_modules/publint/src/cli.js'), tarballs[name], '--strict'], {
      cwd: root,
      env: { ...outsiderEnv(process.execPath) },
    });
    expect(result.output).toContain('All good!');
    expect(result.code).toBe(0);
  });
});
