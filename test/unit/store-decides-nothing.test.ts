// The stores keep SQL only: a rule (when to refuse, what a change means) is written once, in
// packages/core/src/domain/, and the store calls it. What gives a decision away in a store module is an answer
// meant for a client: an HTTP layer import, a problem type, or an HTTP status.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from 'acorn';
import { simple } from 'acorn-walk';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { isProblemKind } from '../../common/problems.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const STORE = join(ROOT, 'server/store');

/** What in `source` (a store module's text) decides for a client; comments are not looked at. */
function clientDecisions(source: string): string[] {
  // esbuild drops types and comments and keeps every import as written; acorn reads what is left.
  const { code } = transformSync(source, { loader: 'ts', tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } } });
  const found: string[] = [];
  simple(parse(code, { ecmaVersion: 'latest', sourceType: 'module' }), {
    ImportDeclaration(node) {
      const from = String(node.source.value);
      if (/\/http\/|\/routes\/|\/problems\.ts$/.test(from)) found.push(`imports ${from}`);
    },
    Literal(node) {
      if (typeof node.value === 'string' && isProblemKind(node.value)) found.push(`problem type '${node.value}'`);
      else if (typeof node.value === 'number' && /^[45]\d\d$/.test(String(node.value))) found.push(`HTTP status ${node.value}`);
    },
    TemplateElement(node) {
      const text = node.value.cooked ?? '';
      if (isProblemKind(text)) found.push(`problem type '${text}'`);
    },
  });
  return found;
}

describe('server/store decides nothing', () => {
  it('finds an HTTP import, a problem type and a status, and nothing in comments', () => {
    const source = `import { ProblemError } from '../http/problems.ts';
      // 409 policy-in-use comes from the domain
      export const refuse = (inUse: boolean) => (inUse ? { type: 'policy-in-use', status: 409 } : 'deleted');`;
    expect(clientDecisions(source)).toEqual(['imports ../http/problems.ts', "problem type 'policy-in-use'", 'HTTP status 409']);
  });

  it('no store module imports the HTTP layer or names a problem type or an HTTP status', () => {
    const modules = readdirSync(STORE, { recursive: true, withFileTypes: true }).filter(
      (entry) => entry.isFile() && entry.name.endsWith('.ts'),
    );
    expect(modules.length).toBeGreaterThan(20);
    const decisions = modules.flatMap((entry) => {
      const path = join(entry.parentPath, entry.name);
      return clientDecisions(readFileSync(path, 'utf8')).map((decision) => `${relative(ROOT, path)}: ${decision}`);
    });
    expect(decisions).toEqual([]);
  });
});
