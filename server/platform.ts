// The core's platform on the server: node:crypto's SHA-256 (native, several times faster than a
// JavaScript one on every ETag) and random bytes, and the one core the server's routes run.
import { createHash, randomBytes } from 'node:crypto';
import { createCore, type Platform } from '../packages/core/src/index.ts';

export const nodePlatform: Platform = {
  sha256: (data) => createHash('sha256').update(data).digest(),
  randomBytes: (length) => randomBytes(length),
};

export const core = createCore(nodePlatform);
export const { digests } = core;
