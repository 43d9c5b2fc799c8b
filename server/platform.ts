// The core's platform on the server: node:crypto's SHA-256 (native, several times faster than a
// JavaScript one on every ETag) and random bytes, and the one core the server's routes run.
import { createHash, randomFillSync } from 'node:crypto';
import { createCore, type Platform } from '../packages/core/src/index.ts';

// Random bytes are taken from a pool refilled 4 KiB at a time, as crypto.randomUUID does: a call
// into OpenSSL costs about 5 µs whatever its size, and a create mints two or three identifiers.
const pool = new Uint8Array(4096);
let used = pool.length;

function pooledRandomBytes(length: number): Uint8Array {
  if (length > pool.length) return randomFillSync(new Uint8Array(length));
  if (used + length > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += length;
  return pool.slice(used - length, used);
}

export const nodePlatform: Platform = {
  sha256: (data) => createHash('sha256').update(data).digest(),
  randomBytes: pooledRandomBytes,
};

export const core = createCore(nodePlatform);
export const { digests } = core;
