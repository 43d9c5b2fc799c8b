// Runs every rule over a released document and a revision.
import type { OpenApiDocument } from '../../packages/api/src/document.ts';
import { type Change, type Comparison, compareDocuments } from './model.ts';
import {
  ADDITIVE_DOCUMENT_RULES,
  ADDITIVE_SCHEMA_RULES,
  DOCUMENT_RULES,
  type DocumentRule,
  SCHEMA_RULES,
  type SchemaRule,
} from './rules.ts';
import { type SchemaPair, schemaPairsOf } from './schema-pairs.ts';

export type { Change } from './model.ts';

export interface ChangeReport {
  breaking: Change[];
  additive: Change[];
}

/** Runs the rules; a change found for several readers is reported once, naming all of them. */
function run(
  comparison: Comparison,
  pairs: SchemaPair[],
  documentRules: readonly DocumentRule[],
  schemaRules: readonly SchemaRule[],
): Change[] {
  const all = [...documentRules.flatMap((rule) => rule(comparison)), ...pairs.flatMap((pair) => schemaRules.flatMap((rule) => rule(pair)))];
  const unique = new Map<string, Change>();
  for (const change of all) {
    const key = `${change.rule} ${change.pointer} ${change.message}`;
    const known = unique.get(key);
    const audience = [...new Set([...(known?.audience ?? []), ...change.audience])].sort();
    unique.set(key, { ...(known ?? change), audience });
  }
  return [...unique.values()].sort(
    (a, b) => a.pointer.localeCompare(b.pointer) || a.rule.localeCompare(b.rule) || a.message.localeCompare(b.message),
  );
}

export function compareReleases(base: OpenApiDocument, revision: OpenApiDocument): ChangeReport {
  const comparison = compareDocuments(base, revision);
  const pairs = schemaPairsOf(comparison);
  return {
    breaking: run(comparison, pairs, DOCUMENT_RULES, SCHEMA_RULES),
    additive: run(comparison, pairs, ADDITIVE_DOCUMENT_RULES, ADDITIVE_SCHEMA_RULES),
  };
}

/** The breaking changes from `base` to `revision`, each once, ordered by pointer. */
export const findBreakingChanges = (base: OpenApiDocument, revision: OpenApiDocument): Change[] => compareReleases(base, revision).breaking;
