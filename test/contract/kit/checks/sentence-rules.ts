// The rule an operation's own description states, found by its words: a check names the sentence
// of the operation it judges without a table of rule ids per resource, and a document that words
// an operation differently leaves the failure without a rule rather than naming the wrong one.
import { CATALOGUE, type RuleId } from '../rules/catalogue.ts';
import type { OperationModel } from '../spec.ts';

const pointerSegment = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The first sentence of `op`'s description that `words` matches. */
export function sentenceRule(op: OperationModel, words: RegExp): RuleId | undefined {
  const at = `/paths/${pointerSegment(op.path)}/${op.method.toLowerCase()}/description`;
  return CATALOGUE.find((entry) => entry.at === at && words.test(entry.text))?.id;
}

/** The first sentence anywhere in the document's schemas at a pointer ending `at` that `words` matches. */
export function schemaRule(at: string, words: RegExp): RuleId | undefined {
  return CATALOGUE.find((entry) => entry.at.startsWith('/components/schemas/') && entry.at.endsWith(at) && words.test(entry.text))?.id;
}
