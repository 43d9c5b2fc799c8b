// The webhook signature scheme (the document's *Verifying signatures*): `sha256=` + lowercase hex HMAC-SHA256 of the exact raw
// body bytes, keyed with the secret's UTF-8 bytes. The same as GitHub's X-Hub-Signature-256.
// HMAC comes from @noble/hashes rather than node:crypto so one synchronous implementation runs in
// Node and in browsers (Web Crypto would make verification asynchronous, and a forgotten `await`
// on a Promise<boolean> reads as "valid"). It costs ~7 µs more per KiB than node:crypto.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export const SIGNATURE_HEADER = 'X-Service-Signature';
const PREFIX = 'sha256=';
const HEADER_PATTERN = /^sha256=[0-9a-f]{64}$/;

const bytes = (value: string | Uint8Array) => (typeof value === 'string' ? utf8ToBytes(value) : value);

/** The `X-Service-Signature` value for a body. */
export function sign(rawBody: string | Uint8Array, secret: string): string {
  return PREFIX + bytesToHex(hmac(sha256, utf8ToBytes(secret), bytes(rawBody)));
}

/**
 * Checks a delivery's `X-Service-Signature` in constant time. False for a missing, malformed or
 * wrong signature. Throws a TypeError for the two mistakes a `false` would hide: a body that is
 * not the raw bytes (a parsed object cannot be verified: re-serialising changes the bytes), and
 * a missing secret (usually an unset environment variable).
 */
export function verifySignature(rawBody: string | Uint8Array, headerValue: string | string[] | null | undefined, secret: string): boolean {
  assertVerifiable('verifySignature', rawBody, secret);
  if (typeof headerValue !== 'string' || !HEADER_PATTERN.test(headerValue)) return false;
  const expected = sign(rawBody, secret);
  // Both are 71 ASCII characters here; compare every one so the time does not depend on where they differ.
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ headerValue.charCodeAt(i);
  return difference === 0;
}

/**
 * The two mistakes a failed verification would hide, as TypeErrors: a body that is not the raw
 * bytes, and a missing secret. Shared by every verifying function of the package.
 */
export function assertVerifiable(caller: string, rawBody: unknown, secret: unknown): void {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new TypeError(
      `${caller} needs the raw body bytes as received (a Buffer, Uint8Array or string), not ${kindOf(rawBody)}: ` +
        `the signature covers the exact bytes, which parsing and re-serialising change. In Express use express.raw({ type: 'application/json' }) ` +
        `on the webhook route (not express.json()), verify, then parse with parseEvent.`,
    );
  }
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError(
      `${caller} needs the webhook's secret, got ${secret === '' ? 'an empty string' : kindOf(secret)}: ` +
        `check that it is configured (for example SECMON_WEBHOOK_SECRET). A webhook without a secret sends unsigned deliveries, which cannot be verified.`,
    );
  }
}

const kindOf = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'a parsed object' : `${typeof value}`;
