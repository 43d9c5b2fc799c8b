// The Standard Webhooks signature (standardwebhooks.com), sent beside X-Service-Signature:
// `webhook-signature: v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, keyed
// with the secret's UTF-8 bytes. Signing the id and the time with the body is what lets a receiver
// refuse a captured delivery replayed later. One `v1,` entry per valid secret, space-separated, so
// a secret being rotated keeps verifying. Same HMAC as signing.ts (@noble/hashes: Node and browsers).
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { base64 } from './base64.ts';

export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';
/** How far `webhook-timestamp` may be from the receiver's clock, either way (the document's tolerance). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const bytes = (value: string | Uint8Array) => (typeof value === 'string' ? utf8ToBytes(value) : value);

/** One `v1,<base64>` entry: the signature of `{id}.{timestamp}.{body}` with one secret. */
export function signStandard(id: string, timestamp: number, rawBody: string | Uint8Array, secret: string): string {
  const signed = concatBytes(utf8ToBytes(`${id}.${timestamp}.`), bytes(rawBody));
  return `v1,${base64(hmac(sha256, utf8ToBytes(secret), signed))}`;
}

/** The `webhook-signature` value: one entry per secret, in the order given (newest first). */
export function standardSignatureHeader(id: string, timestamp: number, rawBody: string | Uint8Array, secrets: readonly string[]): string {
  return secrets.map((secret) => signStandard(id, timestamp, rawBody, secret)).join(' ');
}

/**
 * The secret as the `standardwebhooks` libraries take it: they decode a `whsec_`-prefixed base64
 * key, while SecMon keys the HMAC with the secret's own UTF-8 bytes.
 */
export function standardWebhooksKey(secret: string): string {
  return base64(utf8ToBytes(secret));
}
