// A 400 names every invalid part of the request at once (body, query and path together), so an
// integrator fixes a request in one round trip; the mock's shim does the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM, readProblem, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const pointersOf = async (response: Response) => {
  expect(response.status).toBe(400);
  const problem = await readProblem(response);
  expect(problem.type).toBe(PROBLEM('validation-error'));
  const pointers = [...new Set(problem.errors?.map((error) => error.pointer))];
  expect(problem.detail).toBe(`The request has ${problem.errors!.length} invalid part${problem.errors!.length === 1 ? '' : 's'}.`);
  return pointers;
};

describe('every validation error at once', () => {
  it('a missing name, a bad severity and a string for a boolean: three errors in one problem', async () => {
    const response = await t.fetch('/v1/policies', { method: 'POST', json: { severity: 'urgent', enabled: 'yes' } });
    expect(await pointersOf(response)).toEqual(['/body/name', '/body/severity', '/body/enabled']);
  });

  it('body, query and path in one request: an unknown query parameter, a bad id and three bad fields', async () => {
    const response = await t.fetch('/v1/findings/fnd_nope?colour=red', {
      method: 'PUT',
      json: { title: '', severity: 'urgent', status: 'gone', owner: 'me' },
    });
    expect(await pointersOf(response)).toEqual(
      expect.arrayContaining(['/query/colour', '/path/id', '/body/title', '/body/severity', '/body/status', '/body/owner']),
    );
  });

  it('several bad and unknown query parameters of a list', async () => {
    const response = await t.fetch('/v1/findings?limit=0&status=closed&owner=me&colour=red&severity=');
    expect((await pointersOf(response)).sort()).toEqual([
      '/query/colour',
      '/query/limit',
      '/query/owner',
      '/query/severity',
      '/query/status',
    ]);
  });

  it('a path that is not valid percent-encoding is refused naming the path, not the URL, beside the other invalid parts', async () => {
    const response = await t.fetch('/v1/findings/%E0%A4?colour=red');
    expect(response.status).toBe(400);
    expect((await readProblem(response)).errors).toEqual([
      { pointer: '/query/colour', message: 'is not a known parameter' },
      { pointer: '/path', message: 'is not a valid percent-encoded URI path' },
    ]);
  });

  it('a body its Content-Encoding does not decode is refused pointing at /body', async () => {
    const response = await t.fetch('/v1/policies', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: '{"name":"not gzip"}',
    });
    expect(response.status).toBe(400);
    const [error] = (await readProblem(response)).errors!;
    expect(error!.pointer).toBe('/body');
    expect(error!.message).toMatch(/^could not be read \(/);
  });

  it("an unknown query parameter's name is escaped in its pointer (RFC 6901: ~ as ~0, / as ~1)", async () => {
    const response = await t.fetch(`/v1/policies?${encodeURIComponent('a/b~c')}=1`);
    expect(response.status).toBe(400);
    expect((await readProblem(response)).errors).toEqual([{ pointer: '/query/a~1b~0c', message: 'is not a known parameter' }]);
  });

  it('an unknown query parameter alone is still refused, with the same message as the mock', async () => {
    const response = await t.fetch('/v1/policies?colour=red');
    expect(response.status).toBe(400);
    expect((await readProblem(response)).errors).toEqual([{ pointer: '/query/colour', message: 'is not a known parameter' }]);
  });

  it('a valid request with a documented query still succeeds', async () => {
    expect((await t.fetch('/v1/findings?limit=5&status=open')).status).toBe(200);
  });
});
