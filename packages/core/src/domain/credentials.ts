// Which spellings of the Authorization header carry an API key. The document's scheme is HTTP
// `bearer` (RFC 6750): the scheme name in any case (RFC 9110 section 11.1), one or more spaces,
// then the token and nothing after it. The server, the mock's shim and the MSW handlers read the
// header here, so a spelling one of them serves is served by all.
const BEARER = /^Bearer +([\x21-\x7e]{1,1024}) *$/i;

/** The bearer token an Authorization header carries; undefined when it carries none. */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  return BEARER.exec(authorization ?? '')?.[1];
}
