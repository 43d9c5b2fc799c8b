// openapi-typescript and openapi-fetch are in maintenance mode (no further releases, security fixes
// included): each is pinned to the exact version the project tested, and each is reached through
// one module, so replacing it is one file (CONTRIBUTING.md, *Dependencies*).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['packages', 'common', 'server', 'scripts', 'bench', 'examples', 'test'];
const manifest = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

function sources(): string[] {
  return FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !/node_modules|dist/.test(entry.parentPath))
      .map((entry) => join(entry.parentPath, entry.name)),
  );
}

/** The files that import `pkg` or name a path into its folder (a bin run with node). */
function usersOf(pkg: string): string[] {
  const named = new RegExp(`(from\\s+|import\\(\\s*)['"]${pkg}['"/]|['"]${pkg}/`);
  return sources()
    .filter((file) => named.test(readFileSync(file, 'utf8')))
    .map((file) => relative(ROOT, file))
    .filter((file) => file !== 'test/unit/frozen-dependencies.test.ts');
}

describe('frozen dependencies', () => {
  it('are pinned to exact versions wherever a manifest names them', () => {
    const root = manifest('package.json');
    const lib = manifest('packages/api/package.json');
    const generators = manifest('tools/generators/package.json');
    // The generator and the TypeScript it runs on, pinned together in their own folder; the
    // repository's TypeScript (7, without a JavaScript compiler API) is not the generator's.
    expect(generators.dependencies['openapi-typescript']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(generators.dependencies.typescript).toMatch(/^5\.\d+\.\d+$/);
    expect(root.devDependencies['openapi-typescript']).toBeUndefined();
    expect(root.dependencies['openapi-fetch']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lib.dependencies['openapi-fetch']).toBe(root.dependencies['openapi-fetch']);
  });

  it('openapi-fetch is imported by packages/api/src/client.ts alone; openapi-typescript is run by scripts/pipeline.ts alone', () => {
    expect(usersOf('openapi-fetch')).toEqual(['packages/api/src/client.ts']);
    expect(usersOf('openapi-typescript')).toEqual(['scripts/pipeline.ts']);
  });
});
