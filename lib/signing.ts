// The webhook signature scheme (brief §6): `sha256=` + lowercase hex HMAC-SHA256 of the exact raw
// body bytes, keyed with the secret's UTF-8 bytes. The same as GitHub's X-Hub-Signature-256.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';
const PREFIX = 'sha256=';
const HEADER_PATTERN = /^sha256=[0-9a-f]{64}$/;

/** The `X-Service-Signature` value for a body. */
export function sign(rawBody: string | Uint8Array, secret: string): string {
  return PREFIX + createHmac('sha256', secret).update(rawBody).digest('hex');
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
  const expected = Buffer.from(sign(rawBody, secret), 'utf8');
  const received = Buffer.from(headerValue, 'utf8');
  return expected.length === received.length && timingSafeEqual(expected, received);
}
