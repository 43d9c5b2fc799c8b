// Runs every breaking-change rule over a released document and a revision.
import type { OpenApiDocument } from '../../lib/document.ts';
import { schemaPairsOf, type BreakingChange } from './model.ts';
import { DOCUMENT_RULES, SCHEMA_RULES } from './rules.ts';

export type { BreakingChange } from './model.ts';

/** The breaking changes from `base` to `revision`, each once, ordered by pointer. */
export function findBreakingChanges(base: OpenApiDocument, revision: OpenApiDocument): BreakingChange[] {
  const pairs = schemaPairsOf(base, revision);
  const all = [
    ...DOCUMENT_RULES.flatMap((rule) => rule(base, revision)),
    ...pairs.flatMap((pair) => SCHEMA_RULES.flatMap((rule) => rule(pair))),
  ];
  const unique = new Map(all.map((change) => [`${change.rule} ${change.pointer} ${change.message}`, change]));
  return [...unique.values()].sort((a, b) => a.pointer.localeCompare(b.pointer) || a.rule.localeCompare(b.rule));
}

/** One line per change: `rule  pointer  message`. */
export function formatBreakingChanges(changes: BreakingChange[]): string {
  return changes.map((change) => `✗ ${change.rule}  ${change.pointer}\n    ${change.message}`).join('\n');
}
