// Which catalogue rules a failure breaks, found where the document states them: an operation's own
// description, the description of the parameter, header, answer or schema the failure is about, the
// part of a body it is in, or a webhook's. A check names the sentences at that place that say what
// it saw broken, so a generic check (every list, every read, every delivery) names each operation's
// own rule without a table of ids to keep in step, and a document that words it otherwise leaves the
// failure without a rule rather than naming the wrong one.
import { escapePointer, type OpenApiDocument, resolveRef, unescapePointer } from 'secmon-api/src/document';
import type { OperationModel, WebhookModel } from '../spec.ts';
import { CATALOGUE, type RuleId } from './catalogue.ts';
import { type CatalogueEntry, statusOf } from './rule.ts';

/**
 * A rule found where the document states it, at run time: a check may name it although its
 * definition does not list it (the definition lists the rules it judges everywhere).
 */
export type StatedRule = RuleId & { readonly [stated]: true };
declare const stated: unique symbol;

const ANY = /(?:)/;
const withoutHash = (pointer: string) => pointer.replace(/^#/, '');

/** The sentences stated at the descriptions `where` accepts (pointers without `#`) that match `pattern`, in document order. */
const sentencesWhere = (where: (at: string) => boolean, pattern: RegExp = ANY): CatalogueEntry[] =>
  (CATALOGUE as readonly CatalogueEntry[]).filter((entry) => where(entry.at) && pattern.test(entry.text));

/** The ids of the checkable rules among `entries` (and of `judged`, when given). */
const rulesOf = (entries: CatalogueEntry[], judged?: readonly string[]): StatedRule[] =>
  entries.filter((entry) => statusOf(entry) === 'checked' && (!judged || judged.includes(entry.id))).map((entry) => entry.id as StatedRule);

/** The sentences stated at the description `at` (a pointer, `#` optional) that match `pattern`, in document order. */
export const sentencesAt = (at: string, pattern: RegExp = ANY): CatalogueEntry[] =>
  sentencesWhere((where) => where === withoutHash(at), pattern);

/** The checkable rules whose sentence, stated at the description `at`, matches `pattern` (and is one of `judged`, when given). */
export const statedAt = (at: string, pattern: RegExp = ANY, judged?: readonly string[]): StatedRule[] =>
  rulesOf(sentencesAt(at, pattern), judged);

/** Where `op` is in the document: its description and responses are under this pointer. */
export const operationAt = (op: OperationModel) => `/paths/${escapePointer(op.path)}/${op.method.toLowerCase()}`;

/** The rules of an operation's own description that match `pattern`. */
export const statedFor = (op: OperationModel, pattern: RegExp): StatedRule[] => statedAt(`${operationAt(op)}/description`, pattern);

/** The first sentence of `op`'s description that `words` matches (none when the document words it otherwise). */
export const sentenceRule = (op: OperationModel, words: RegExp): StatedRule[] =>
  sentencesAt(`${operationAt(op)}/description`, words)
    .slice(0, 1)
    .map((entry) => entry.id as StatedRule);

/** The first sentence of `op`'s description: what the operation does. */
export const leadRule = (op: OperationModel): StatedRule | undefined => sentenceRule(op, ANY)[0];

/** The rules of the description beside a parameter's or header's `schema` pointer. */
export const statedBeside = (schemaPointer: string, pattern: RegExp = ANY, judged?: readonly string[]): StatedRule[] =>
  statedAt(withoutHash(schemaPointer).replace(/\/schema$/, '/description'), pattern, judged);

/** The node at a pointer of the document (`#` optional), undefined when there is none. */
function nodeAt(doc: OpenApiDocument, pointer: string): unknown {
  let node: unknown = doc;
  for (const segment of withoutHash(pointer).split('/').slice(1))
    node = (node as Record<string, unknown> | undefined)?.[unescapePointer(segment)];
  return node;
}

/** The rules of the description of the named schema a pointer refers to (a response's `$ref`). */
export function statedOfSchema(doc: OpenApiDocument, pointer: string, pattern: RegExp): StatedRule[] {
  const ref = (nodeAt(doc, pointer) as { $ref?: unknown } | undefined)?.$ref;
  return typeof ref === 'string' ? statedAt(`${ref}/description`, pattern) : [];
}

/** The first sentence anywhere in the document's schemas at a pointer ending `at` that `words` matches. */
export const schemaRule = (at: string, words: RegExp): StatedRule[] =>
  sentencesWhere((where) => where.startsWith('/components/schemas/') && where.endsWith(at), words)
    .slice(0, 1)
    .map((entry) => entry.id as StatedRule);

/** Where the description of `schema` (one of the document's component schemas) is; undefined for an inline one. */
export function schemaDescriptionAt(doc: OpenApiDocument, schema: unknown): string | undefined {
  const name = Object.entries(doc.components?.schemas ?? {}).find(([, candidate]) => candidate === schema)?.[0];
  return name === undefined ? undefined : `/components/schemas/${escapePointer(name)}/description`;
}

/** The rules beside the header `name` (lowercase) of the operation's answer with `status`. */
export function statedOfHeader(op: OperationModel, status: string, name: string, pattern: RegExp): StatedRule[] {
  const header = op.responses.get(status)?.headers.find((h) => h.name.toLowerCase() === name);
  return header ? statedBeside(header.pointer, pattern) : [];
}

/** The rules beside the operation's parameter `name` (lowercase). */
export function statedOfParam(op: OperationModel, name: string, pattern: RegExp): StatedRule[] {
  const param = op.params.find((p) => p.name.toLowerCase() === name);
  return param ? statedBeside(param.pointer, pattern) : [];
}

/** The rules of the description of the operation's answer with `status`. */
export function statedOfResponse(op: OperationModel, status: string, pattern: RegExp): StatedRule[] {
  const response = op.responses.get(status);
  return response ? statedAt(`${response.pointer}/description`, pattern) : [];
}

type Node = { $ref?: string; properties?: Record<string, Node>; items?: Node } | undefined;

/**
 * The judged rules described for the part at `path` (an instance path) of the schema at
 * `schemaPointer`: the description beside the property and those of the schemas it refers to.
 */
export function statedOfBodyPart(doc: OpenApiDocument, schemaPointer: string, path: string, judged: readonly string[]): StatedRule[] {
  let where = schemaPointer;
  let node = nodeAt(doc, where) as Node;
  const places: string[] = [];
  const follow = () => {
    places.push(where);
    while (node?.$ref) {
      where = node.$ref;
      node = nodeAt(doc, where) as Node;
      places.push(where);
    }
  };
  for (const segment of path.split('/').filter((s) => s !== '')) {
    follow();
    places.length = 0;
    const item = /^\d+$/.test(segment);
    where = item ? `${where}/items` : `${where}/properties/${segment}`;
    node = item ? node?.items : node?.properties?.[segment];
    if (!node) return [];
  }
  follow();
  const descriptions = new Set(places.map((place) => `${withoutHash(place)}/description`));
  return rulesOf(
    sentencesWhere((at) => descriptions.has(at)),
    judged,
  );
}

export interface WebhookRules {
  /** The sentences saying when the event is sent. */
  sent: StatedRule[];
  /** The description of the body property at an instance path (`/data/policy_id`). */
  property(instancePath: string): StatedRule[];
  /** The rules a list of schema errors breaks (the described properties they name). */
  schema(errors: readonly { instancePath: string }[]): StatedRule[];
  /** A header's own description (when it is one sentence) and its row of the delivery-headers table. */
  header(name: string): StatedRule[];
}

/** Where the document states what a delivery of `webhook` must be, among the rules `judged`. */
export function statedOfWebhook(doc: OpenApiDocument, webhook: WebhookModel, judged: readonly string[]): WebhookRules {
  const body =
    schemaDescriptionAt(doc, resolveRef(doc, nodeAt(doc, webhook.bodyPointer))) ?? `${withoutHash(webhook.bodyPointer)}/description`;
  const property = (instancePath: string) => statedOfBodyPart(doc, webhook.bodyPointer, instancePath, judged);
  const sent = /^Sent\b/;
  return {
    sent: [...statedAt(`/webhooks/${webhook.event}/post/description`, sent, judged), ...statedAt(body, sent, judged)],
    property,
    // A failure of the body as a whole (an extra field at its root) breaks its schema, no sentence.
    schema: (errors) => [...new Set(errors.flatMap((error) => (error.instancePath === '' ? [] : property(error.instancePath))))],
    header: (name) => {
      const param = webhook.headers.find((h) => h.name.toLowerCase() === name.toLowerCase());
      const own = param ? sentencesAt(withoutHash(param.pointer).replace(/\/schema$/, '/description')) : [];
      const row = (text: string) => text.toLowerCase().startsWith(`\`${name.toLowerCase()}\` |`);
      const rows = sentencesAt('/info/description').filter((entry) => row(entry.text));
      return rulesOf([...(own.length === 1 ? own : []), ...rows], judged);
    },
  };
}
