// Webhook event bodies: their types come from the document's `webhooks` section and their run-time
// check is the same section's request-body schema, so sender and receiver agree with the contract.
import type { components, webhooks } from '../../../generated/schema.d.ts';
import { escapePointer, loadDocument } from './document.ts';
import type { Extensible } from './extensible.ts';
import { readerView } from './reader-view.ts';
import { createSchemaValidator, type SchemaValidator, type ValidationResult } from './schema-validator.ts';

export type EventType = components['schemas']['EventType'];

type EventBodies = {
  [K in keyof webhooks]: NonNullable<webhooks[K]['post']>['requestBody']['content']['application/json'];
};

/**
 * The body of any webhook notification, discriminated by `event`, as a receiver reads it: enum
 * fields also admit values newer than this version (Versioning: the service may add them in v1).
 */
export type WebhookEvent = EventBodies[keyof webhooks] extends infer E
  ? E extends { event: infer T }
    ? Omit<Extensible<E>, 'event'> & { event: T }
    : never
  : never;

/** The body of one event type. */
export type EventOf<T extends EventType> = Extract<WebhookEvent, { event: T }>;

/** The six event types, in document order (the keys of its `webhooks` section). */
export const EVENT_TYPES: readonly EventType[] = Object.freeze(Object.keys(loadDocument().webhooks ?? {}) as EventType[]);

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}

/** JSON pointer of an event type's body schema in the bundled document. */
export function eventSchemaPointer(type: EventType): string {
  return `#/webhooks/${escapePointer(type)}/post/requestBody/content/${escapePointer('application/json')}/schema`;
}

// Compiling the bundle takes a while; only processes that touch events pay for it.
let validator: SchemaValidator | undefined;
let readerValidator: SchemaValidator | undefined;

/**
 * Checks a parsed body against the webhook schema its `event` names, strictly: exactly this
 * version, no unknown field or enum value (what the service itself must send).
 */
export function validateEvent(body: unknown): ValidationResult {
  return validateWith(body, () => (validator ??= createSchemaValidator()));
}

function validateWith(body: unknown, validatorOf: () => SchemaValidator): ValidationResult {
  const type = (body as { event?: unknown } | null)?.event;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { valid: false, errors: [], message: 'body must be a JSON object' };
  }
  if (!isEventType(type)) {
    return { valid: false, errors: [], message: `body/event must be one of ${EVENT_TYPES.join(', ')}` };
  }
  return validatorOf().validate(eventSchemaPointer(type), body);
}

export class InvalidEventError extends Error {
  override name = 'InvalidEventError';
}

/**
 * Parses and validates a received notification body (the raw bytes, before any JSON parsing) into
 * the typed event. Throws InvalidEventError for invalid JSON or a body the document does not allow.
 * As the Versioning section asks of clients, fields this version does not know are kept and not
 * refused, and so are enum values newer than it; every field it knows is still checked.
 */
export function parseEvent(rawBody: string | Uint8Array): WebhookEvent {
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder('utf-8', { fatal: false }).decode(rawBody);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new InvalidEventError(`event body is not valid JSON: ${(error as Error).message}`);
  }
  const result = validateWith(body, () => (readerValidator ??= createSchemaValidator(readerView(loadDocument()))));
  if (!result.valid) throw new InvalidEventError(`event body does not match its webhook schema: ${result.message}`);
  return body as WebhookEvent;
}
