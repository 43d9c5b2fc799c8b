// Layout tells the architecture: arrows one way, no import circles. Every relative import
// (static, `import type` included) of the product folders is followed; a circle fails with its path.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['lib', 'common', 'server', 'mock', 'scripts', 'bench', 'packages/contract'];
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g;

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
  for (const file of FOLDERS.flatMap(sources)) {
    const text = readFileSync(file, 'utf8');
    graph.set(
      file,
      [...text.matchAll(IMPORT)].map((match) => resolve(dirname(file), match[1]!)).filter((target) => target.endsWith('.ts')),
    );
  }
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
 * Imports from product code into test/, as `from → to`. packages/contract is the contract kit's source
 * (a published package), not a test, so it may import itself; what it shares with the rest of the
 * product lies outside test/ (common/), so nothing else reaches into packages/contract either.
 */
function intoTests(graph: Map<string, string[]>): string[] {
  const inside = (folder: string, path: string) => path.startsWith(`${join(ROOT, folder)}/`);
  return [...graph].flatMap(([file, targets]) =>
    targets
      .filter((target) => inside('test', target) && !(inside('packages/contract', file) && inside('packages/contract', target)))
      .map((target) => `${relative(ROOT, file)} → ${relative(ROOT, target)}`),
  );
}

describe('imports', () => {
  it(`${FOLDERS.join(', ')}: no module imports itself through others`, () => {
    expect(circles().map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it(`${FOLDERS.join(', ')}: nothing imports from the tests (they depend on the product, never the reverse)`, () => {
    expect(intoTests(importGraph())).toEqual([]);
  });

  it('an import into test/ is found, the kit’s own included, unless the kit imports itself', () => {
    const at = (path: string) => join(ROOT, path);
    const graph = new Map([
      [at('scripts/breaking/versioning.ts'), [at('packages/contract/src/kit/semver.ts'), at('common/semver.ts')]],
      [at('server/app.ts'), [at('test/support/cluster.ts')]],
      [at('packages/contract/src/kit/versions.ts'), [at('packages/contract/src/kit/releases.ts'), at('packages/contract/test/suite.ts')]],
    ]);
    expect(intoTests(graph)).toEqual([
      'scripts/breaking/versioning.ts → packages/contract/src/kit/semver.ts',
      'server/app.ts → test/support/cluster.ts',
      'packages/contract/src/kit/versions.ts → packages/contract/test/suite.ts',
    ]);
  });

  it('the contract kit is product code: nothing in packages/contract imports a test framework', () => {
    const framework = /from\s+'(vitest|vitest\/[^']*)'/;
    expect(
      sources('packages/contract')
        .filter((file) => framework.test(readFileSync(file, 'utf8')))
        .map((file) => relative(ROOT, file)),
    ).toEqual([]);
  });
});
