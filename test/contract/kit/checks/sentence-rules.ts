// The rule a description of the document states, found by its words: a check names the sentence
// of the operation or schema it judges without a table of rule ids per resource, and a document
// that words it differently leaves the failure without a rule rather than naming the wrong one.
import { escapePointer, type OpenApiDocument } from '../../../../lib/document.ts';
import { CATALOGUE, type RuleId } from '../rules/catalogue.ts';
import { operationAt, sentencesAt } from '../rules/stated.ts';
import type { OperationModel } from '../spec.ts';

/** The first sentence of `op`'s description that `words` matches (none when the document words it otherwise). */
export const sentenceRule = (op: OperationModel, words: RegExp): RuleId[] =>
  sentencesAt(`${operationAt(op)}/description`, words)
    .slice(0, 1)
    .map((entry) => entry.id as RuleId);

/** The first sentence of `op`'s description: what the operation does. */
export const leadRule = (op: OperationModel): RuleId | undefined => sentenceRule(op, /(?:)/)[0];

/** The first sentence anywhere in the document's schemas at a pointer ending `at` that `words` matches. */
export function schemaRule(at: string, words: RegExp): RuleId[] {
  return CATALOGUE.filter((entry) => entry.at.startsWith('/components/schemas/') && entry.at.endsWith(at) && words.test(entry.text))
    .slice(0, 1)
    .map((entry) => entry.id);
}

/** Where the description of `schema` (one of the document's component schemas) is; undefined for an inline one. */
export function schemaDescriptionAt(doc: OpenApiDocument, schema: unknown): string | undefined {
  const schemas = ((doc as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {}) as Record<string, unknown>;
  const name = Object.entries(schemas).find(([, candidate]) => candidate === schema)?.[0];
  return name === undefined ? undefined : `/components/schemas/${escapePointer(name)}/description`;
}
