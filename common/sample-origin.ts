// The origin the docs page's code samples call. The page `npm run docs` builds is for everyone, so
// its samples call production (the document's first server); the server that serves the page at
// /docs puts its own origin in their place, so a sample copied from http://localhost:3000/docs calls
// that server. A sample quotes the URL it calls (`curl 'https://…/v1/…'`, `baseUrl: 'https://…'`);
// the servers list and the prose, which keep production, never do.
import type { OpenApiDocument } from '../packages/api/src/document.ts';

export const sampleOrigin = (doc: OpenApiDocument): string => doc.servers?.[0]?.url ?? 'http://localhost:3000';

/** The built page with every sample calling `origin` instead of `built`, the origin it was built with. */
export function withSampleOrigin(page: string, built: string, origin: string): string {
  // Each sample is in Redoc's embedded state as written; the introduction's is prerendered as HTML too.
  return page.replaceAll(`'${built}`, `'${origin}`).replaceAll(`&#x27;${built}`, `&#x27;${origin}`);
}
