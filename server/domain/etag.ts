// Strong entity tags derived from the representation itself, so anything visible that changes
// (including a derived field such as a policy's compliance_status) changes the tag. SHA-256 from
// @noble/hashes, so the in-browser stateful mock (secmon-msw) tags with the same function.
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base64url } from '../../packages/api/src/base64.ts';

export function etagOf(representation: unknown): string {
  return etagOfBytes(JSON.stringify(representation));
}

/** The strong ETag of bytes sent as they are (a page, a script). */
export function etagOfBytes(bytes: string | Uint8Array): string {
  return `"${base64url(sha256(typeof bytes === 'string' ? utf8ToBytes(bytes) : bytes)).slice(0, 27)}"`;
}

function listOf(header: string): string[] {
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** RFC 9110 §13.1.1: If-Match uses the strong comparison; `*` matches any current representation. */
export function ifMatchSatisfied(header: string | undefined, current: string): boolean {
  if (header === undefined) return true;
  return listOf(header).some((tag) => tag === '*' || tag === current);
}

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison (a `W/` prefix is ignored). */
export function ifNoneMatchHits(header: string | undefined, current: string): boolean {
  if (header === undefined) return false;
  return listOf(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === current);
}
