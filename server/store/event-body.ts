// The bytes of a queued event, the same for every store and every attempt.
import { validateEvent, type WebhookEvent } from '../../packages/api/src/events.ts';

/**
 * Event bodies are bounded by their schemas to a few KiB; the cap keeps a future schema change or
 * a bug from queueing something no receiver should have to accept.
 */
const MAX_EVENT_BYTES = 64 * 1024;

/**
 * The bytes every attempt of an event sends: the body validated against its webhook schema and
 * serialised once. Throws for an invalid body or one over `maxBytes`.
 */
export function serializeEvent(body: WebhookEvent, maxBytes: number = MAX_EVENT_BYTES): string {
  const result = validateEvent(body);
  if (!result.valid) throw new Error(`refusing to queue an invalid ${String(body.event)} event: ${result.message}`);
  const text = JSON.stringify(body);
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) throw new Error(`refusing to queue a ${body.event} event of ${bytes} bytes (cap ${maxBytes})`);
  return text;
}
