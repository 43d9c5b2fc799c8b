// The stores keep SQL only: what a change means (refusals, unlinking, recipients, disabling) is the
// core's (packages/core/src/use-cases/), and an adapter that cannot reach the core's rules cannot
// decide them. An architecture rule over each store module's runtime imports (type imports vanish
// when TypeScript is stripped): SQL drivers, Node built-ins, other store modules, and from the rest
// of the repository only the row shapes' helpers listed below. The behaviour side is in
// test/store/: the outbox stores exactly the recipients it is handed, the core's use cases decide.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'acorn';
import { simple } from 'acorn-walk';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const STORE = join(ROOT, 'server/store');
const DRIVERS = new Set(['pg']);
/** Outside server/store/, the modules a store may run: how rows are shaped (secrets, compliance's statuses, event bytes), never a rule. */
const ROW_SHAPES = new Set([
  'packages/core/src/port.ts',
  'packages/core/src/domain/webhooks.ts',
  'packages/core/src/domain/findings.ts',
  'packages/api/src/events.ts',
]);

/** The runtime imports of a module's source, as written. */
function runtimeImports(source: string): string[] {
  const { code } = transformSync(source, { loader: 'ts', tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } } });
  const found: string[] = [];
  const add = (node: { source?: { value?: unknown } | null }) => node.source && found.push(String(node.source.value));
  simple(parse(code, { ecmaVersion: 'latest', sourceType: 'module' }), {
    ImportDeclaration: add,
    ExportNamedDeclaration: add,
    ExportAllDeclaration: add,
    ImportExpression: (node) => found.push(String((node.source as { value?: unknown }).value)),
  });
  return found;
}

/** The imports of the module at `path` (repository-relative) that the rule forbids. */
function forbidden(path: string, source: string): string[] {
  return runtimeImports(source).filter((specifier) => {
    if (specifier.startsWith('node:') || DRIVERS.has(specifier)) return false;
    if (!specifier.startsWith('.')) return true;
    const target = relative(ROOT, resolve(dirname(join(ROOT, path)), specifier));
    return !target.startsWith('server/store/') && !ROW_SHAPES.has(target);
  });
}

describe('server/store decides nothing', () => {
  it('sees a rule imported at run time, and not a type import', () => {
    const source = `import type { Repository } from '../../packages/core/src/port.ts';
      import { writeFinding } from '../../packages/core/src/use-cases/finding-write.ts';
      import { problemOf } from '../http/domain-errors.ts';
      import pg from 'pg';
      import { randomUUID } from 'node:crypto';
      import { statement } from './sqlite/statements.ts';
      export const x = (r: Repository) => [writeFinding, problemOf, pg, randomUUID, statement, r];`;
    expect(forbidden('server/store/example.ts', source)).toEqual([
      '../../packages/core/src/use-cases/finding-write.ts',
      '../http/domain-errors.ts',
    ]);
  });

  it('no store module runs anything but SQL drivers, Node, other store modules and the row shapes', () => {
    const modules = readdirSync(STORE, { recursive: true, withFileTypes: true }).filter(
      (entry) => entry.isFile() && entry.name.endsWith('.ts'),
    );
    expect(modules.length).toBeGreaterThan(20);
    const violations = modules.flatMap((entry) => {
      const path = relative(ROOT, join(entry.parentPath, entry.name));
      return forbidden(path, readFileSync(join(ROOT, path), 'utf8')).map((specifier) => `${path} imports ${specifier}`);
    });
    expect(violations).toEqual([]);
  });

  it('no store module mentions whether a webhook is enabled or subscribed in a WHERE clause, or unlinks findings', () => {
    const sql = modules().flatMap(([path, text]) =>
      [...text.matchAll(/WHERE[^;`'"]*?(\benabled\b|json_each\(webhooks\.events\)|webhook_subscriptions WHERE)/g)].map(
        (match) => `${path}: ${match[0]}`,
      ),
    );
    const unlinking = modules().filter(([, text]) => /SET policy_id = NULL/.test(text));
    expect(sql).toEqual([]);
    expect(unlinking).toEqual([]);
  });
});

function modules(): [string, string][] {
  return readdirSync(STORE, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => [relative(ROOT, join(entry.parentPath, entry.name)), readFileSync(join(entry.parentPath, entry.name), 'utf8')]);
}
