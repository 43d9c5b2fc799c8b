// The domain's hashing and identifier functions bound to one platform's SHA-256 and randomness,
// so callers (the use cases, the server's HTTP layer, the MSW handlers) name the platform once.
import { type CursorPosition, decodeCursor, encodeCursor } from './domain/cursor.ts';
import { etagOf, etagOfBytes } from './domain/etag.ts';
import { requestFingerprint } from './domain/idempotency.ts';
import { type IdPrefix, newId } from './domain/ids.ts';
import type { Platform } from './platform.ts';

type Filters = Record<string, string | number | boolean | undefined>;

export interface Digests {
  etagOf(representation: unknown): string;
  etagOfBytes(bytes: string | Uint8Array): string;
  requestFingerprint(method: string, path: string, body: unknown): string;
  encodeCursor(list: string, filters: Filters, position: CursorPosition): string;
  decodeCursor(list: string, filters: Filters, cursor: string): CursorPosition | undefined;
  newId(prefix: IdPrefix, now?: number): string;
}

export function digestsOf({ sha256, randomBytes }: Platform): Digests {
  return {
    etagOf: (representation) => etagOf(sha256, representation),
    etagOfBytes: (bytes) => etagOfBytes(sha256, bytes),
    requestFingerprint: (method, path, body) => requestFingerprint(sha256, method, path, body),
    encodeCursor: (list, filters, position) => encodeCursor(sha256, list, filters, position),
    decodeCursor: (list, filters, cursor) => decodeCursor(sha256, list, filters, cursor),
    newId: (prefix, now = Date.now()) => newId(prefix, now, randomBytes(10)),
  };
}
