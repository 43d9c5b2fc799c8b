// The webhook signature scheme (brief §6): `sha256=` + lowercase hex HMAC-SHA256 of the exact raw
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
 * wrong signature, and when no secret is given (an unsigned delivery cannot be verified).
 */
export function verifySignature(
  rawBody: string | Uint8Array,
  headerValue: string | string[] | null | undefined,
  secret: string | null | undefined,
): boolean {
  if (!secret || typeof headerValue !== 'string' || !HEADER_PATTERN.test(headerValue)) return false;
  const expected = sign(rawBody, secret);
  // Both are 71 ASCII characters here; compare every one so the time does not depend on where they differ.
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ headerValue.charCodeAt(i);
  return difference === 0;
}
