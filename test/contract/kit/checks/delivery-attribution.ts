// Which sentences of the document a delivery that breaks its webhook's description breaks, read
// from where the document states them: the event's description and its schema's (why it is sent),
// a body property's description (described.ts), a header parameter's description and the header's
// row of the delivery-headers table. Only rules the judging check lists are named.
import type { ErrorObject } from 'ajv';
import type { OpenApiDocument } from '../../../../lib/document.ts';
import { CATALOGUE, type RuleId } from '../rules/catalogue.ts';
import { schemaAt, type WebhookModel } from '../spec.ts';
import type { Discrepancy } from '../verify.ts';
import { describedRules } from './described.ts';

const withoutHash = (pointer: string) => pointer.replace(/^#/, '');

/** The same discrepancy once per rule it breaks, so the report's first line names each; as is when none. */
export function naming(discrepancy: Discrepancy, rules: readonly RuleId[]): Discrepancy[] {
  return rules.length === 0 ? [discrepancy] : rules.map((rule) => ({ ...discrepancy, rule }));
}

export interface DeliveryRules {
  /** The sentences saying when the event is sent. */
  sent: RuleId[];
  /** The description of the body property at an instance path (`/data/policy_id`). */
  property(instancePath: string): RuleId[];
  /** The rules an Ajv error list breaks (the described properties it names). */
  schema(errors: ErrorObject[]): RuleId[];
  /** A header's own description (when it is one sentence) and its row of the delivery-headers table. */
  header(name: string): RuleId[];
}

export function deliveryRules(doc: OpenApiDocument, webhook: WebhookModel, judged: readonly string[]): DeliveryRules {
  const keep = (entries: readonly { id: string }[]) => entries.map((e) => e.id as RuleId).filter((id) => judged.includes(id));
  const body = schemaAt(doc, webhook.bodyPointer);
  const named = Object.entries(doc.components?.schemas ?? {}).find(([, schema]) => schema === body)?.[0];
  const schemaPointer = named ? `/components/schemas/${named}` : withoutHash(webhook.bodyPointer);
  const property = (instancePath: string) => describedRules(doc, webhook.bodyPointer, instancePath, judged);
  return {
    sent: keep(
      CATALOGUE.filter(
        (e) =>
          (e.at === `/webhooks/${webhook.event}/post/description` || e.at === `${schemaPointer}/description`) && /^Sent\b/.test(e.text),
      ),
    ),
    property,
    // A failure of the body as a whole (an extra field at its root) breaks its schema, no sentence.
    schema: (errors) => [...new Set(errors.flatMap((error) => (error.instancePath === '' ? [] : property(error.instancePath))))],
    header: (name) => {
      const param = webhook.headers.find((h) => h.name.toLowerCase() === name.toLowerCase());
      const own = param ? CATALOGUE.filter((e) => e.at === withoutHash(param.pointer).replace(/\/schema$/, '/description')) : [];
      const row = CATALOGUE.filter((e) => e.at === '/info/description' && e.text.toLowerCase().startsWith(`\`${name.toLowerCase()}\` |`));
      return keep([...(own.length === 1 ? own : []), ...row]);
    },
  };
}
