// What the core needs from its host that differs between Node and browsers: a SHA-256 (entity
// tags, request fingerprints, cursor digests) and random bytes (identifiers). The server passes
// node:crypto (server/platform.ts); browsers and the MSW handlers pass ./portable-platform.ts.
export interface Platform {
  /** SHA-256 of bytes, or of text as UTF-8. */
  sha256(data: string | Uint8Array): Uint8Array;
  randomBytes(length: number): Uint8Array;
}
