// The formats the document states in words for the values of a success answer (an identifier's
// prefix and alphabet, a timestamp in UTC with `Z`): a value that breaks the schema of one of them
// names that schema's sentence, not only the schema, when the check judges that sentence.

import type { KitContext } from '../../context.ts';
import type { Check } from '../../failure.ts';
import type { Exchange } from '../../http.ts';
import type { RuleId } from '../../rules/catalogue.ts';
import { schemaDescriptionAt, statedAt } from '../../rules/stated.ts';
import { type OperationModel, schemaAt } from '../../spec.ts';
import { conformance } from '../../verify.ts';
import type { Json } from './rule-support.ts';

/** The component schema a property refers to, directly or as the first part of an `allOf`. */
function referenced(property: Json): string | undefined {
  if (typeof property.$ref === 'string') return property.$ref;
  const first = (property.allOf as Json[] | undefined)?.[0];
  return typeof first?.$ref === 'string' ? first.$ref : undefined;
}

/** The first stated format (a rule of `judged`) a property of `item` breaks, with the property's name. */
function statedFormatBroken<R extends RuleId>(
  ctx: KitContext,
  schema: Json,
  item: Json,
  judged: readonly R[],
): { rule: R; name: string } | undefined {
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    const ref = referenced(property);
    if (!ref || !(name in item) || ctx.sentValidator.validate(ref, item[name]).valid) continue;
    const at = schemaDescriptionAt(ctx.model.doc, schemaAt(ctx.model.doc, ref));
    const [stated]: (RuleId | undefined)[] = at ? statedAt(at, undefined, judged) : [];
    const rule = judged.find((id) => id === stated);
    if (rule) return { rule, name };
  }
  return undefined;
}

/**
 * Throws a breach of the first stated format a value of the answer (or of each listed item) breaks,
 * with the schema's; `judged` are rules of the check's own, so its handle names them.
 */
export function expectStatedFormats<R extends RuleId>(
  ctx: KitContext,
  op: OperationModel,
  check: Check<R>,
  exchange: Exchange,
  judged: readonly R[],
): void {
  const pointer = op.responses.get(String(exchange.status))?.content.get(exchange.mediaType);
  if (!pointer || typeof exchange.json !== 'object' || exchange.json === null) return;
  const schema = schemaAt(ctx.model.doc, pointer);
  const list = (schema.properties as Record<string, Json> | undefined)?.data?.items as Json | undefined;
  const [itemSchema, items] = list
    ? [list.$ref ? schemaAt(ctx.model.doc, String(list.$ref)) : list, ((exchange.json as Json).data as Json[] | undefined) ?? []]
    : [schema, [exchange.json as Json]];
  for (const item of items) {
    const broken = statedFormatBroken(ctx, itemSchema, item, judged);
    if (!broken) continue;
    // The schema's own verdict too: the rules it names (an identifier's length, say) are broken as well.
    const stated = check.found({ rule: broken.rule, observed: `${broken.name} is ${JSON.stringify(item[broken.name])}` });
    check.failAll({ at: op, found: [...stated, ...conformance(ctx.sentValidator, op, exchange)], exchange });
  }
}
