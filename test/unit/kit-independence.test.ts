// The contract kit judges implementations, the reference server among them, so it must not reuse
// what they sign or answer with: a defect there would be copied into the verdict and never seen.
// Every module the kit reaches outside its own folder, directly or through others, must be on the
// list below: the document, its schema validation, the reader's view of its schemas, and how its
// descriptions split into sentences and its versions compare (shared with the breaking-change gate),
// and how a command answers `--help` and a usage error (shared with every shipped command); none of
// them signs or answers anything.
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf } from '../support/source-imports.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const KIT = join(ROOT, 'packages/contract/src');
const ALLOWED = [
  'packages/api/src/document.ts',
  'packages/api/src/schema-validator.ts',
  'packages/api/src/reader-view.ts',
  'common/sentences.ts',
  'common/sentence-diff.ts',
  'common/semver.ts',
  'common/cli.ts',
];

/** Modules outside the kit that `entries` reach, each with the kit module that imports the first step. */
function reachedOutside(entries: string[]): Map<string, string> {
  const outside = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (file: string, from: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const isKit = file.startsWith(`${KIT}/`);
    if (!isKit) outside.set(relative(ROOT, file), relative(ROOT, from));
    for (const target of importsOf(file)) visit(target, isKit ? file : from);
  };
  for (const entry of entries) visit(entry, entry);
  return outside;
}

describe('the contract kit is independent of what it judges', () => {
  const modules = readdirSync(KIT, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.includes('node_modules') && !file.startsWith('dist'))
    .map((file) => join(KIT, file));
  const reached = reachedOutside(modules);

  it(`reaches nothing in packages/api/src/, common/ or server/ but ${ALLOWED.join(', ')}`, () => {
    const wrong = [...reached].filter(([module]) => !ALLOWED.includes(module)).map(([module, from]) => `${from} → ${module}`);
    expect(wrong).toEqual([]);
  });

  it('the walk follows the kit into packages/api/src/ (so the list above is what it really reaches)', () => {
    expect([...reached.keys()].sort()).toEqual([...ALLOWED].sort());
  });
});
