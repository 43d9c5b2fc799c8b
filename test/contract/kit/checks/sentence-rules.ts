// The rule a description of the document states, found by its words: a check names the sentence
// of the operation or schema it judges without a table of rule ids per resource, and a document
// that words it differently leaves the failure without a rule rather than naming the wrong one.
import type { OpenApiDocument } from '../../../../lib/document.ts';
import type { KitContext } from '../context.ts';
import type { Exchange } from '../http.ts';
import { CATALOGUE, type RuleId } from '../rules/catalogue.ts';
import type { OperationModel } from '../spec.ts';
import { ContractViolation } from '../verify.ts';

const pointerSegment = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Where `op` is in the document: its description and responses are under this pointer. */
export const operationAt = (op: OperationModel) => `/paths/${pointerSegment(op.path)}/${op.method.toLowerCase()}`;

/** The first sentence of `op`'s description that `words` matches. */
export function sentenceRule(op: OperationModel, words: RegExp): RuleId | undefined {
  return CATALOGUE.find((entry) => entry.at === `${operationAt(op)}/description` && words.test(entry.text))?.id;
}

/** The first sentence of `op`'s description: what the operation does. */
export function leadRule(op: OperationModel): RuleId | undefined {
  return CATALOGUE.find((entry) => entry.at === `${operationAt(op)}/description`)?.id;
}

/** The first sentence anywhere in the document's schemas at a pointer ending `at` that `words` matches. */
export function schemaRule(at: string, words: RegExp): RuleId | undefined {
  return CATALOGUE.find((entry) => entry.at.startsWith('/components/schemas/') && entry.at.endsWith(at) && words.test(entry.text))?.id;
}

/** Where the description of `schema` (one of the document's component schemas) is; undefined for an inline one. */
export function schemaDescriptionAt(doc: OpenApiDocument, schema: unknown): string | undefined {
  const schemas = ((doc as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {}) as Record<string, unknown>;
  const name = Object.entries(schemas).find(([, candidate]) => candidate === schema)?.[0];
  return name === undefined ? undefined : `/components/schemas/${pointerSegment(name)}/description`;
}

/** A status other than `statuses` named as a breach of `rule` (when the document states one). */
export function statusStated(
  op: OperationModel,
  check: string,
  exchange: Exchange,
  statuses: number[],
  note: string,
  rule: RuleId | undefined,
): void {
  if (!rule || statuses.includes(exchange.status)) return;
  const message = `expected ${statuses.join(' or ')} (${note}), got ${exchange.status}`;
  throw new ContractViolation(op.label, check, [{ aspect: 'expectation', message, details: [], rule }], exchange);
}

/** ctx.expect, with a status other than `statuses` named as a breach of `rule` (when the document states one). */
export function expectStated(ctx: KitContext, ...stated: Parameters<typeof statusStated>): void {
  statusStated(...stated);
  const [op, check, exchange, statuses, note] = stated;
  ctx.expect(op, check, exchange, { statuses }, note);
}
