// The modules a source file imports, as files: relative specifiers, and the workspace packages'
// (`secmon-api/src/document`), which their exports map to src/*.ts under the `secmon-source` condition.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/g;

const WORKSPACE = new Map(
  readdirSync(join(ROOT, 'packages')).map((folder) => {
    const { name } = JSON.parse(readFileSync(join(ROOT, 'packages', folder, 'package.json'), 'utf8')) as { name: string };
    return [name, join(ROOT, 'packages', folder)] as const;
  }),
);

/** The file a specifier names from `file`, or undefined for npm dependencies and Node's modules. */
export function importedFile(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return resolve(dirname(file), specifier);
  const [scope = '', ...rest] = specifier.split('/');
  const dir = WORKSPACE.get(scope);
  if (!dir || rest[0] !== 'src') return undefined;
  return `${join(dir, ...rest)}.ts`;
}

/** The TypeScript files `file` imports (static imports and re-exports, `import type` included). */
export const importsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(IMPORT)]
    .map((match) => importedFile(file, match[1]!))
    .filter((target): target is string => target?.endsWith('.ts') === true);
