// The RateLimit headers the three mocks send (the static one behind Prism, the stateful one, the
// MSW handlers): the document's examples, made true of the answer they go on.
import type { OpenAPIV3_1 } from 'openapi-types';
import { type OpenApiDocument, resolveRef } from '../packages/api/src/document.ts';

/** `ratelimit` and `ratelimit-policy` as the document's examples give them, for every authenticated answer. */
export function documentedRateLimit(doc: OpenApiDocument): Record<string, string> {
  return Object.fromEntries(
    ['RateLimit', 'RateLimit-Policy'].map((name) => [
      name.toLowerCase(),
      String(resolveRef<OpenAPIV3_1.HeaderObject>(doc, { $ref: `#/components/headers/${name.replace('-', '')}` }).example),
    ]),
  );
}

/**
 * The `RateLimit` of a `429`: no request remains, and the window resets when `Retry-After` says.
 * The document's example is shared by every answer, so it tells of quota left (`r=117`).
 */
export function quotaUsedUp(rateLimit: string, retryAfter: string | undefined): string {
  const none = rateLimit.replace(/;\s*r=\d+/, '; r=0');
  return retryAfter === undefined ? none : none.replace(/;\s*t=\d+/, `; t=${retryAfter}`);
}
