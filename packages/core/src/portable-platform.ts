// The platform for browsers (and any runtime without node:crypto): @noble/hashes' SHA-256 and Web
// Crypto's random bytes. Pure JavaScript hashing is several times slower than node:crypto, which is
// why the server brings its own.
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import type { Platform } from './platform.ts';

export const portablePlatform: Platform = {
  sha256: (data) => sha256(typeof data === 'string' ? utf8ToBytes(data) : data),
  randomBytes: (length) => crypto.getRandomValues(new Uint8Array(length)),
};
