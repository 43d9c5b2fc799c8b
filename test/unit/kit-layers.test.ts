// The contract kit's imports run one way: cli → session → checks → model/http/oracle → document.
// Every module of packages/contract/src belongs to one layer and imports only its own layer and
// those below it (`import type` included); a module in no layer fails, so a new one is placed
// deliberately. The run reaches the checks through the registry alone, and a check module imports
// no other: what checks share is in checks/shared/.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf } from '../support/source-imports.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'packages/contract/src');

/** Top to bottom; a module is in the first layer whose test its path (relative to src/) passes. */
const LAYERS: { name: string; holds: (path: string) => boolean }[] = [
  { name: 'cli', holds: (path) => path === 'cli.ts' },
  {
    name: 'session',
    holds: (path) =>
      [
        'session',
        'runner',
        'run-check',
        'plan',
        'registry',
        'budget',
        'cost-profile',
        'coverage',
        'results',
        'junit',
        'faults',
        'violation',
        'cause',
        'repro',
        'repro-judge',
        'repro-files',
        'repro-keys',
        'repro-needed',
        'repro-delivery',
        'repro-delivery-symptom',
        'repro-delivery-webhooks',
        'repro-delivery-runtime',
        'repro-delivery-record',
        'repro-delivery-module',
        'repro-delivery-http',
        'version-judge',
        'usage',
        'receiver-check',
        'foreign',
        'axes/index',
        'rules/trace',
        'rules/headline',
        'rules/sync',
      ].some((name) => path === `kit/${name}.ts`),
  },
  {
    name: 'checks',
    holds: (path) => path.startsWith('kit/checks/') || ['check', 'failure', 'context', 'raise'].some((name) => path === `kit/${name}.ts`),
  },
  {
    name: 'model/http/oracle',
    holds: (path) =>
      path.startsWith('kit/model/') ||
      path.startsWith('kit/axes/') ||
      ['http', 'raw-http', 'oracle', 'receiver', 'verify', 'generate', 'cases', 'options'].some((name) => path === `kit/${name}.ts`),
  },
  {
    name: 'document',
    holds: (path) =>
      ['spec', 'semantics', 'releases', 'versions', 'rules/catalogue', 'rules/rule', 'rules/stated', 'rules/unproven'].some(
        (name) => path === `kit/${name}.ts`,
      ),
  },
];

const layerOf = (path: string): number => LAYERS.findIndex((layer) => layer.holds(path));

function sources(): string[] {
  return readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(SRC, join(entry.parentPath, entry.name)));
}

/** The kit's own imports of `path`, relative to src/ (other packages and the repository's common modules lie below every layer). */
const kitImports = (path: string): string[] =>
  importsOf(join(SRC, path))
    .map((target) => relative(SRC, target))
    .filter((target) => !target.startsWith('..'));

/** Each import that runs up a layer, as `from (layer) → to (layer)`. */
function upward(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([from, targets]) =>
    targets
      .filter((to) => layerOf(to) < layerOf(from))
      .map((to) => `${from} (${LAYERS[layerOf(from)]!.name}) → ${to} (${LAYERS[layerOf(to)]!.name})`),
  );
}

/** Each import of a check module by another. */
function betweenChecks(graph: Map<string, string[]>, isCheck: (path: string) => boolean): string[] {
  return [...graph].flatMap(([from, targets]) => (isCheck(from) ? targets.filter(isCheck).map((to) => `${from} → ${to}`) : []));
}

/** Each import of a module in checks/ from outside it other than the registry's. */
function pastTheRegistry(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([from, targets]) =>
    from.startsWith('kit/checks/') || from === 'kit/registry.ts'
      ? []
      : targets.filter((to) => to.startsWith('kit/checks/')).map((to) => `${from} → ${to}`),
  );
}

describe('the contract kit’s layers', () => {
  const graph = new Map(sources().map((path) => [path, kitImports(path)]));

  it('places every module of packages/contract/src in a layer', () => {
    expect([...graph.keys()].filter((path) => layerOf(path) < 0)).toEqual([]);
  });

  it('has no import running up a layer', () => {
    expect(upward(graph)).toEqual([]);
  });

  it('reaches the check modules through the registry alone', () => {
    expect(pastTheRegistry(graph)).toEqual([]);
  });

  it('keeps each check to its own module', () => {
    const isCheck = (path: string) => path.startsWith('kit/checks/') && /\bdefineCheck\(/.test(readFileSync(join(SRC, path), 'utf8'));
    expect([...graph.keys()].filter(isCheck).length).toBeGreaterThan(0);
    expect(betweenChecks(graph, isCheck)).toEqual([]);
  });

  it('finds an arrow running up and one past the registry', () => {
    const made = new Map([
      ['kit/http.ts', ['kit/checks/raw-http.ts', 'kit/spec.ts']],
      ['kit/session.ts', ['kit/checks/shared/event-run.ts', 'kit/plan.ts']],
      ['kit/spec.ts', []],
    ]);
    expect(upward(made)).toEqual(['kit/http.ts (model/http/oracle) → kit/checks/raw-http.ts (checks)']);
    expect(pastTheRegistry(made)).toEqual(['kit/http.ts → kit/checks/raw-http.ts', 'kit/session.ts → kit/checks/shared/event-run.ts']);
  });
});
