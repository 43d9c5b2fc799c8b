// Webhook event bodies: their types come from the document's `webhooks` section and their run-time
// check is the same section's request-body schema, so sender and receiver agree with the contract.
import type { components, webhooks } from '../generated/schema.d.ts';
import { escapePointer, loadDocument } from './document.ts';
import { createSchemaValidator, type SchemaValidator, type ValidationResult } from './schema-validator.ts';

export type EventType = components['schemas']['EventType'];

type EventBodies = {
  [K in keyof webhooks]: NonNullable<webhooks[K]['post']>['requestBody']['content']['application/json'];
};

/** The body of any webhook notification, discriminated by `event`. */
export type WebhookEvent = EventBodies[keyof webhooks];

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

/** Checks a parsed body against the webhook schema its `event` names. */
export function validateEvent(body: unknown): ValidationResult {
  const type = (body as { event?: unknown } | null)?.event;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { valid: false, errors: [], message: 'body must be a JSON object' };
  }
  if (!isEventType(type)) {
    return { valid: false, errors: [], message: `body/event must be one of ${EVENT_TYPES.join(', ')}` };
  }
  validator ??= createSchemaValidator();
  return validator.validate(eventSchemaPointer(type), body);
}

export class InvalidEventError extends Error {
  override name = 'InvalidEventError';
}

/**
 * Parses and validates a received notification body (the raw bytes, before any JSON parsing) into
 * the typed event. Throws InvalidEventError for invalid JSON or a body the document does not allow.
 */
export function parseEvent(rawBody: string | Uint8Array): WebhookEvent {
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder('utf-8', { fatal: false }).decode(rawBody);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new InvalidEventError(`event body is not valid JSON: ${(error as Error).message}`);
  }
  const result = validateEvent(body);
  if (!result.valid) throw new InvalidEventError(`event body does not match its webhook schema: ${result.message}`);
  return body as WebhookEvent;
}
