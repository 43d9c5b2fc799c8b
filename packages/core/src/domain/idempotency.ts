// What makes two creates with one Idempotency-Key the same request: the method, the path and the
// body as JSON with sorted keys (key order is not a difference). The SHA-256 is the platform's, so
// the in-browser stateful mock (secmon-msw) replays and refuses by the same rule as the server.
import type { Platform } from '../platform.ts';

/** JSON with sorted keys, so two bodies that differ only in key order are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The hex SHA-256 a stored create is matched by (the stores keep it beside the key). */
export const requestFingerprint = (sha256: Platform['sha256'], method: string, path: string, body: unknown): string =>
  Array.from(sha256(`${method} ${path}\n${canonical(body)}`), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** The refusal of a key reused with another request. */
export const reusedKeyDetail = (key: string) => `The Idempotency-Key ${key} was used with a different request body.`;
