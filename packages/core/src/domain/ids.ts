// TypeID-style identifiers: a type prefix and a UUIDv7 in 26 lowercase Crockford base32
// characters, so identifiers sort by creation time as plain strings. The random bytes are the
// platform's (Web Crypto in browsers, node:crypto on the server).

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export type IdPrefix = 'pol' | 'fnd' | 'whk' | 'dev' | 'scn';

/** A UUIDv7 (RFC 9562) as 16 bytes: 48-bit Unix milliseconds, version 7, variant 10, random. */
export function uuidv7Bytes(now: number, random: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(16);
  let ms = now;
  for (let index = 5; index >= 0; index--) {
    bytes[index] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes.set(random.subarray(0, 10), 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return bytes;
}

/** 128 bits as 26 base32 characters, the two leading padding bits zero (so the first is 0-7). */
export function encodeBase32(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let out = '';
  for (let index = 0; index < 26; index++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

export function newId(prefix: IdPrefix, now: number, random: Uint8Array): string {
  return `${prefix}_${encodeBase32(uuidv7Bytes(now, random))}`;
}
