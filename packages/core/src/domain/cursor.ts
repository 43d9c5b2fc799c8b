// Opaque keyset cursors for the (created_at, id) descending order. A cursor carries the last
// item's sort key and a digest of the filters it was issued with, so reusing it with other
// filters (or handing in anything this service did not issue) is detected and refused. Portable
// (no Buffer; the SHA-256 is the platform's): the in-browser stateful mock pages with the same cursors.
import { base64url, fromBase64url } from '../../../api/src/base64.ts';
import type { Platform } from '../platform.ts';

export interface CursorPosition {
  created_at: string;
  id: string;
}

type Filters = Record<string, string | number | boolean | undefined>;

function filterDigest(sha256: Platform['sha256'], list: string, filters: Filters): string {
  const canonical = Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${String(value)}`)
    .join('&');
  return base64url(sha256(`${list}?${canonical}`)).slice(0, 12);
}

export function encodeCursor(sha256: Platform['sha256'], list: string, filters: Filters, position: CursorPosition): string {
  const payload = JSON.stringify([filterDigest(sha256, list, filters), position.created_at, position.id]);
  return base64url(new TextEncoder().encode(payload));
}

/** The position a cursor points after, or undefined when it is malformed or bound to other filters. */
export function decodeCursor(sha256: Platform['sha256'], list: string, filters: Filters, cursor: string): CursorPosition | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(fromBase64url(cursor)));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((part) => typeof part === 'string')) return undefined;
  const [digest, createdAt, id] = parsed as [string, string, string];
  if (digest !== filterDigest(sha256, list, filters)) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/.test(createdAt) || !/^[a-z]{3}_[0-9a-z]{26}$/.test(id)) {
    return undefined;
  }
  return { created_at: createdAt, id };
}
