// The breaking-change rules, one pure function each. Operation rules compare the two documents;
// schema rules compare one pair of schemas found by schemaPairsOf. See RULES at the bottom.
import type { OpenAPIV3_1 } from 'openapi-types';
import { escapePointer, resolveRef, type OpenApiDocument } from '../../lib/document.ts';
import { SIGNATURE_HEADER } from '../../lib/signing.ts';
import { operationsOf, parameterKey, parametersOf, typesOf, type BreakingChange, type SchemaPair } from './model.ts';

type DocumentRule = (base: OpenApiDocument, revision: OpenApiDocument) => BreakingChange[];
type SchemaRule = (pair: SchemaPair) => BreakingChange[];

// ── operations ──────────────────────────────────────────────────────────────────────────────────

/** An API operation is gone (removed, or moved to another path or method). */
const operationRemoved: DocumentRule = (base, revision) =>
  operationsOf(base, revision)
    .filter((op) => op.kind === 'api' && !op.revision)
    .map((op) => ({ rule: 'operation-removed', pointer: op.basePointer, message: `${op.label} was removed` }));

/** An event type is gone from `webhooks`: receivers subscribed to it get nothing. */
const eventTypeRemoved: DocumentRule = (base, revision) =>
  operationsOf(base, revision)
    .filter((op) => op.kind === 'webhook' && !op.revision)
    .map((op) => ({ rule: 'event-type-removed', pointer: op.basePointer, message: `${op.label} was removed` }));

/** A renamed operationId renames the method of every generated client. */
const operationIdChanged: DocumentRule = (base, revision) =>
  operationsOf(base, revision)
    .filter((op) => op.revision && op.base.operationId !== op.revision.operationId)
    .map((op) => ({
      rule: 'operation-id-changed',
      pointer: `${op.revisionPointer}/operationId`,
      message: `${op.label}: operationId ${op.base.operationId} became ${op.revision!.operationId}`,
    }));

/** A documented status code is gone (or replaced by another): clients branch on them. */
const statusCodeRemoved: DocumentRule = (base, revision) =>
  operationsOf(base, revision).flatMap((op) =>
    op.kind !== 'api' || !op.revision
      ? []
      : Object.keys(op.base.responses ?? {})
          .filter((status) => !(status in (op.revision!.responses ?? {})))
          .map((status) => ({
            rule: 'status-code-removed',
            pointer: `${op.basePointer}/responses/${status}`,
            message: `${op.label}: response ${status} was removed`,
          })),
  );

/** A response header (ETag, Location, RateLimit, Retry-After, ...) is no longer sent. */
const responseHeaderRemoved: DocumentRule = (base, revision) =>
  operationsOf(base, revision).flatMap((op) =>
    Object.entries(op.kind === 'api' && op.revision ? (op.base.responses ?? {}) : {}).flatMap(([status, response]) => {
      const after = op.revision!.responses?.[status];
      if (!after) return [];
      const names = (doc: OpenApiDocument, r: unknown) =>
        Object.keys(resolveRef<OpenAPIV3_1.ResponseObject>(doc, r as OpenAPIV3_1.ResponseObject).headers ?? {}).map((h) => h.toLowerCase());
      const kept = new Set(names(revision, after));
      return names(base, response)
        .filter((header) => !kept.has(header))
        .map((header) => ({
          rule: 'response-header-removed',
          pointer: `${op.revisionPointer}/responses/${status}/headers`,
          message: `${op.label}: response ${status} no longer has the header ${header}`,
        }));
    }),
  );

/** A request parameter is gone: unknown parameters are refused with 400, so old clients break. */
const parameterRemoved: DocumentRule = (base, revision) =>
  operationsOf(base, revision).flatMap((op) =>
    op.kind !== 'api' || !op.revision
      ? []
      : parametersOf(base, revision, op)
          .filter((pair) => !pair.revision)
          .map((pair) => ({
            rule: 'parameter-removed',
            pointer: pair.pointer,
            message: `${op.label}: the ${pair.key} parameter was removed`,
          })),
  );

/** A parameter clients must now send: a new required one, or an optional one made required. */
const requiredParameterAdded: DocumentRule = (base, revision) =>
  operationsOf(base, revision).flatMap((op) => {
    if (op.kind !== 'api' || !op.revision) return [];
    const before = new Map(parametersOf(base, revision, op).map((pair) => [pair.key, pair.base]));
    return (op.revision.parameters ?? []).flatMap((parameter, i) => {
      const p = resolveRef<OpenAPIV3_1.ParameterObject>(revision, parameter);
      const key = parameterKey(p);
      return p.required && !before.get(key)?.required
        ? [{ rule: 'required-parameter-added', pointer: `${op.revisionPointer}/parameters/${i}`, message: `${op.label}: the ${key} parameter is now required` }]
        : [];
    });
  });

/** A delivery header receivers rely on is gone, or is no longer always sent. */
const webhookHeaderRemoved: DocumentRule = (base, revision) =>
  operationsOf(base, revision).flatMap((op) =>
    op.kind !== 'webhook' || !op.revision
      ? []
      : parametersOf(base, revision, op)
          .filter((pair) => pair.base.in === 'header' && (!pair.revision || (pair.base.required && !pair.revision.required)))
          .map((pair) => ({
            rule: 'webhook-header-removed',
            pointer: pair.pointer,
            message: `${op.label}: the delivery header ${pair.base.name} ${pair.revision ? 'is no longer always sent' : 'was removed'}`,
          })),
  );

/** The signature header changed its format or its documented scheme: every verifier breaks. */
const signatureSchemeChanged: DocumentRule = (base, revision) =>
  operationsOf(base, revision).flatMap((op) =>
    parametersOf(base, revision, op)
      .filter((pair) => op.kind === 'webhook' && pair.key === `header ${SIGNATURE_HEADER.toLowerCase()}` && pair.revision)
      .flatMap((pair) => {
        const [b, r] = [pair.base, pair.revision!];
        const [bs, rs] = [resolveRef(base, b.schema ?? {}), resolveRef(revision, r.schema ?? {})] as OpenAPIV3_1.SchemaObject[];
        const changed = [
          b.description !== r.description && 'description',
          bs!.pattern !== rs!.pattern && `pattern (${bs!.pattern} → ${rs!.pattern})`,
          (bs!.minLength !== rs!.minLength || bs!.maxLength !== rs!.maxLength) && 'length',
        ].filter((what): what is string => typeof what === 'string');
        return changed.map((what) => ({
          rule: 'signature-scheme-changed',
          pointer: pair.pointer,
          message: `the ${SIGNATURE_HEADER} header's ${what} changed`,
        }));
      }),
  );

// ── schemas ─────────────────────────────────────────────────────────────────────────────────────

/** An enum value or const is gone: clients sending it are refused, receivers switching on it miss it. */
const enumValueRemoved: SchemaRule = ({ base, revision, pointer }) => {
  const allowed = (schema: typeof base) => schema.enum ?? ('const' in schema ? [schema.const] : undefined);
  const [before, after] = [allowed(base), allowed(revision)];
  if (!before || !after) return [];
  return before
    .filter((value) => !after.some((kept) => JSON.stringify(kept) === JSON.stringify(value)))
    .map((value) => ({ rule: 'enum-value-removed', pointer, message: `the value ${JSON.stringify(value)} was removed` }));
};

/** A request field that clients must now send. */
const requiredRequestFieldAdded: SchemaRule = ({ base, revision, pointer, direction }) =>
  direction !== 'to-service'
    ? []
    : (revision.required ?? [])
        .filter((name) => !(base.required ?? []).includes(name))
        .map((name) => ({
          rule: 'required-request-field-added',
          pointer: `${pointer}/required`,
          message: `the request field ${name} is now required`,
        }));

/**
 * A field is gone. In a response or event, clients reading it break (and a required field made
 * optional may now be missing); in a request, closed objects refuse it, so clients sending it break.
 */
const fieldRemoved: SchemaRule = ({ base, revision, pointer, direction }) => {
  const where = direction === 'to-service' ? 'request' : 'response or event';
  const removed = Object.keys(base.properties ?? {})
    .filter((name) => !(name in (revision.properties ?? {})))
    .map((name) => ({
      rule: 'field-removed',
      pointer: `${pointer}/properties/${escapePointer(name)}`,
      message: `the ${where} field ${name} was removed`,
    }));
  const optional =
    direction === 'from-service'
      ? (base.required ?? [])
          .filter((name) => name in (revision.properties ?? {}) && !(revision.required ?? []).includes(name))
          .map((name) => ({ rule: 'field-removed', pointer: `${pointer}/required`, message: `the ${where} field ${name} is no longer always present` }))
      : [];
  return [...removed, ...optional];
};

const UPPER_BOUNDS = ['maxLength', 'maxItems', 'maxProperties', 'maximum', 'exclusiveMaximum'] as const;
const LOWER_BOUNDS = ['minLength', 'minItems', 'minProperties', 'minimum', 'exclusiveMinimum'] as const;

/** A request value that was valid is refused: an upper bound lowered or a lower bound raised (or added). */
const boundNarrowed: SchemaRule = ({ base, revision, pointer, direction }) => {
  if (direction !== 'to-service') return [];
  const bound = (schema: typeof base, key: string) => (schema as Record<string, unknown>)[key] as number | undefined;
  const narrowed = (key: string, tighter: (before: number, after: number) => boolean) => {
    const [before, after] = [bound(base, key), bound(revision, key)];
    return after !== undefined && (before === undefined || tighter(before, after))
      ? [{ rule: 'bound-narrowed', pointer: `${pointer}/${key}`, message: `${key} went from ${before ?? 'none'} to ${after}` }]
      : [];
  };
  return [
    ...UPPER_BOUNDS.flatMap((key) => narrowed(key, (before, after) => after < before)),
    ...LOWER_BOUNDS.flatMap((key) => narrowed(key, (before, after) => after > before)),
  ];
};

/** A pattern changed: values valid before may be refused (requests) or unparseable (responses, events). */
const patternChanged: SchemaRule = ({ base, revision, pointer, direction }) => {
  if (base.pattern === revision.pattern) return [];
  // Dropping a pattern from a request only accepts more.
  if (direction === 'to-service' && revision.pattern === undefined) return [];
  return [{ rule: 'pattern-changed', pointer: `${pointer}/pattern`, message: `the pattern ${base.pattern ?? 'none'} became ${revision.pattern ?? 'none'}` }];
};

/**
 * The allowed JSON types changed the wrong way: a request type narrowed (say string|null → string)
 * or a response or event type widened (say string → string|null, which readers do not expect).
 */
const typeChanged: SchemaRule = ({ base, revision, pointer, direction }) => {
  const [before, after] = [typesOf(base), typesOf(revision)];
  const covers = (set: Set<string> | undefined, type: string) =>
    set === undefined || set.has(type) || (type === 'integer' && set.has('number'));
  const [from, to] = direction === 'to-service' ? [before, after] : [after, before];
  const lost = from === undefined ? ['any'] : [...from].filter((type) => !covers(to, type));
  if (lost.length === 0 || (from === undefined && to === undefined)) return [];
  const describe = (set: Set<string> | undefined) => (set ? [...set].join('|') : 'any');
  return [
    {
      rule: direction === 'to-service' ? 'type-narrowed' : 'type-widened',
      pointer: `${pointer}/type`,
      message: `the ${direction === 'to-service' ? 'request' : 'response or event'} type went from ${describe(before)} to ${describe(after)}`,
    },
  ];
};

export const DOCUMENT_RULES: readonly DocumentRule[] = [
  operationRemoved,
  eventTypeRemoved,
  operationIdChanged,
  statusCodeRemoved,
  responseHeaderRemoved,
  parameterRemoved,
  requiredParameterAdded,
  webhookHeaderRemoved,
  signatureSchemeChanged,
];

export const SCHEMA_RULES: readonly SchemaRule[] = [
  enumValueRemoved,
  requiredRequestFieldAdded,
  fieldRemoved,
  boundNarrowed,
  patternChanged,
  typeChanged,
];
