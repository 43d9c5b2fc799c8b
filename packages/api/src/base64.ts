// Base64 and base64url over plain bytes with btoa/atob, so the modules that use them (signatures,
// entity tags, cursors) run unchanged in Node and in browsers, where Buffer does not exist.

export function base64(data: Uint8Array): string {
  let binary = '';
  for (const byte of data) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** RFC 4648 §5, unpadded: what Node's `Buffer#toString('base64url')` gives. */
export const base64url = (data: Uint8Array): string => base64(data).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The bytes of unpadded base64url text; throws on characters outside the alphabet. */
export function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
