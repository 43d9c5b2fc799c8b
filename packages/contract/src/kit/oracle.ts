// The kit's own reading of how a delivery is signed and stamped, computed with node:crypto from the
// document's words (the *Verifying signatures* section and the header parameters), never with the
// code an implementation signs with: a defect in the reference server's signer must show up as a
// violation, not be reproduced by the judge. The receiver check signs its deliveries with it too.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { OpenApiDocument } from 'secmon-api/src/document';

/** `sha256=` followed by the lowercase hex HMAC-SHA256 of the raw body, keyed with the secret's UTF-8 bytes. */
export const SIGNATURE_HEADER = 'X-Service-Signature';

const hmac = (secret: string) => createHmac('sha256', Buffer.from(secret, 'utf8'));

/** The X-Service-Signature value of a body. */
export function serviceSignature(raw: string | Uint8Array, secret: string): string {
  return `sha256=${hmac(secret).update(raw).digest('hex')}`;
}

/** A `webhook-signature` entry over any content: `v1,` and its base64 HMAC-SHA256. */
export const entryOver = (signed: string | Uint8Array, secret: string): string => `v1,${hmac(secret).update(signed).digest('base64')}`;

/** One `webhook-signature` entry: over `{webhook-id}.{webhook-timestamp}.{raw body}`. */
export function standardEntry(id: string, timestamp: string, raw: string | Uint8Array, secret: string): string {
  return `v1,${hmac(secret).update(`${id}.${timestamp}.`).update(raw).digest('base64')}`;
}

/** Equal strings, compared in constant time as the document asks receivers to. */
export function sameSignature(offered: string | undefined, expected: string): boolean {
  if (offered === undefined) return false;
  const [a, b] = [Buffer.from(offered), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * How far `webhook-timestamp` may be from the receiver's clock, read from the sentence of the
 * header's description ("more than 5 minutes from your clock"), so a new tolerance in the document
 * moves the kit with it. Throws when the sentence is gone: the kit cannot guess a tolerance.
 */
export function toleranceSeconds(doc: OpenApiDocument): number {
  const parameters = (doc.components as { parameters?: Record<string, { name?: string; description?: string }> } | undefined)?.parameters;
  const timestamp = Object.values(parameters ?? {}).find((p) => p.name === 'webhook-timestamp');
  const stated = /more than (\d+) (second|minute)s? from your\s+clock/.exec(timestamp?.description ?? '');
  if (!stated) throw new Error('the document no longer states the webhook-timestamp tolerance the kit judges against');
  return Number(stated[1]) * (stated[2] === 'minute' ? 60 : 1);
}

export interface SignedDelivery {
  body: string;
  eventType: string;
  deliveryId: string;
  webhookId: string;
  /** No signature header at all when null. */
  secret: string | null;
  timestamp: number;
  /** The contract version, for `User-Agent: SecMon-Webhooks/<version>`. */
  version: string;
}

/** The headers the document's *Delivery headers* table lists for one delivery, lower-case names. */
export function signedDeliveryHeaders(delivery: SignedDelivery): Record<string, string> {
  const { body, eventType, deliveryId, webhookId, secret, timestamp, version } = delivery;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': `SecMon-Webhooks/${version}`,
    'x-service-event': eventType,
    'x-service-delivery': deliveryId,
    'x-service-webhook-id': webhookId,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
  };
  if (secret) {
    headers[SIGNATURE_HEADER.toLowerCase()] = serviceSignature(body, secret);
    headers['webhook-signature'] = standardEntry(deliveryId, String(timestamp), body, secret);
  }
  return headers;
}
