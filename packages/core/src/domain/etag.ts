// Strong entity tags derived from the representation itself, so anything visible that changes
// (including a derived field such as a policy's compliance_status) changes the tag. The SHA-256 is
// the platform's (../platform.ts), so the server and the in-browser stateful mock tag alike.
import { base64url } from '../../../api/src/base64.ts';
import type { Platform } from '../platform.ts';

/** The strong ETag of bytes sent as they are (a page, a script). */
export function etagOfBytes(sha256: Platform['sha256'], bytes: string | Uint8Array): string {
  return `"${base64url(sha256(bytes)).slice(0, 27)}"`;
}

export function etagOf(sha256: Platform['sha256'], representation: unknown): string {
  return etagOfBytes(sha256, JSON.stringify(representation));
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
