// The shim's translation of Prism's violations into the document's `{ pointer, message }`:
// every segment of the pointer is escaped (RFC 6901), the unknown field's name included.
import { describe, expect, it } from 'vitest';
import { toProblemError } from '../src/prism-answers.ts';

describe('toProblemError', () => {
  it('escapes / and ~ in every segment, the unknown field name included', () => {
    expect(toProblemError({ location: ['request', 'body', 'a/b', 'c~d'], message: 'Request body property a/b must be string' })).toEqual({
      pointer: '/body/a~1b/c~0d',
      message: 'must be string',
    });
    expect(
      toProblemError({
        location: ['request', 'body'],
        code: 'additionalProperties',
        message: "Request body must NOT have additional properties; found 'x/y~z'",
      }),
    ).toEqual({ pointer: '/body/x~1y~0z', message: 'is not a known field' });
  });
});
