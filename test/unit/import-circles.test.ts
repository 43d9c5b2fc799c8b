// Layout tells the architecture: arrows one way, no import circles. Every relative import and
// every import of a workspace package (static, `import type` included) of the product folders is
// followed; a circle fails with its path.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf } from '../support/source-imports.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['packages', 'common', 'server', 'scripts', 'bench'];

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter(
      (entry) =>
        entry.isFile() && entry.name.endsWith('.ts') && !entry.parentPath.includes('node_modules') && !entry.parentPath.includes('dist'),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of FOLDERS.flatMap(sources)) graph.set(file, importsOf(file));
  return graph;
}

function circles(): string[][] {
  const graph = importGraph();
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].map((path) => relative(ROOT, path)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

/**
 * Imports from product code into the tests (test/ and each package's test/), as `from → to`. The
 * tests may import each other; the product, the contract kit's source included, never a test.
 */
function intoTests(graph: Map<string, string[]>): string[] {
  const isTest = (path: string) => /^(test|packages\/[^/]+\/test)\//.test(relative(ROOT, path));
  return [...graph].flatMap(([file, targets]) =>
    isTest(file) ? [] : targets.filter(isTest).map((target) => `${relative(ROOT, file)} → ${relative(ROOT, target)}`),
  );
}

describe('imports', () => {
  it(`${FOLDERS.join(', ')}: no module imports itself through others`, () => {
    expect(circles().map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it(`${FOLDERS.join(', ')}: nothing imports from the tests (they depend on the product, never the reverse)`, () => {
    expect(intoTests(importGraph())).toEqual([]);
  });

  it('an import from the product into a test folder is found, the kit’s into its own tests included; tests importing tests are not', () => {
    const at = (path: string) => join(ROOT, path);
    const graph = new Map([
      [at('scripts/breaking/versioning.ts'), [at('packages/contract/src/kit/semver.ts'), at('common/semver.ts')]],
      [at('server/app.ts'), [at('test/support/cluster.ts')]],
      [at('packages/contract/src/kit/versions.ts'), [at('packages/contract/src/kit/releases.ts'), at('packages/contract/test/suite.ts')]],
      [at('packages/contract/test/suite.ts'), [at('test/support/cluster.ts'), at('packages/mock/test/operations.ts')]],
    ]);
    expect(intoTests(graph)).toEqual([
      'server/app.ts → test/support/cluster.ts',
      'packages/contract/src/kit/versions.ts → packages/contract/test/suite.ts',
    ]);
  });

  it('the contract kit is product code: nothing in packages/contract/src imports a test framework', () => {
    const framework = /from\s+'(vitest|vitest\/[^']*)'/;
    expect(
      sources('packages/contract/src')
        .filter((file) => framework.test(readFileSync(file, 'utf8')))
        .map((file) => relative(ROOT, file)),
    ).toEqual([]);
  });
});
