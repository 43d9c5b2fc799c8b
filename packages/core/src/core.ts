// The application core: the use cases of every collection over a repository port, with the
// platform's hashing and randomness. The server builds one over node:crypto; the MSW handlers and
// browsers over ./portable-platform.ts.
import { type Digests, digestsOf } from './digests.ts';
import type { Platform } from './platform.ts';
import { type Collections, collections } from './use-cases/collections.ts';

export interface Core extends Collections {
  digests: Digests;
}

export function createCore(platform: Platform): Core {
  const digests = digestsOf(platform);
  return { digests, ...collections(digests) };
}
