// The stateless mock's honest lists, first as pure functions, then through the running mock: every
// cursor loop ends, limit bounds the page, filters select, a create's Location and ETag match its
// body, and CORS works for a browser on any origin without the wildcard-with-credentials mistake.
import { beforeAll, describe, expect, it } from 'vitest';
import { staticMock } from '../../../test/support/static-mock.ts';
import { pageOf } from '../src/pages.ts';
import type { MockServer } from '../src/prism.ts';

const example = {
  data: ['a', 'b', 'c', 'd', 'e'].map((id, i) => ({ id, status: i % 2 ? 'open' : 'resolved', events: i < 2 ? ['x'] : ['y'] })),
  next_cursor: 'eyJleGFtcGxlIjp0cnVlfQ',
};
const query = (text: string) => new URLSearchParams(text);

describe('pageOf', () => {
  it('pages by limit with its own cursors until next_cursor is null', () => {
    const first = pageOf(example, query('limit=2'), []);
    expect([first.data.map((item) => item.id), first.next_cursor]).toEqual([['a', 'b'], 'mock_2']);
    const second = pageOf(example, query(`limit=2&cursor=${first.next_cursor}`), []);
    const third = pageOf(example, query(`limit=2&cursor=${second.next_cursor}`), []);
    expect([third.data.map((item) => item.id), third.next_cursor]).toEqual([['e'], null]);
  });

  it('gives a cursor it did not mint the last page, so a loop over the example cursor ends', () => {
    expect(pageOf(example, query('cursor=eyJleGFtcGxlIjp0cnVlfQ'), [])).toEqual({ data: [], next_cursor: null });
  });

  it('filters by a property, or by membership in its plural list', () => {
    expect(pageOf(example, query('status=open'), ['status']).data.map((item) => item.id)).toEqual(['b', 'd']);
    expect(pageOf(example, query('event=x'), ['event']).data.map((item) => item.id)).toEqual(['a', 'b']);
    expect(pageOf(example, query('status=open&undocumented=1'), ['status']).data).toHaveLength(2);
  });
});

describe('the mock', () => {
  let mock: MockServer;
  const AUTH = { authorization: 'Bearer frontend-dev' };
  beforeAll(async () => {
    mock = await staticMock();
  });

  it('ends a cursor walk over findings with limit=2, every item once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = (await (
        await fetch(`${mock.url}/v1/findings?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { headers: AUTH })
      ).json()) as { data: { id: string }[]; next_cursor: string | null };
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((item) => item.id));
      cursor = page.next_cursor;
    } while (cursor && ++pages < 20);
    expect(cursor).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(6);
  });

  it('filters the examples: status=resolved gives only resolved findings', async () => {
    const page = (await (await fetch(`${mock.url}/v1/findings?status=resolved`, { headers: AUTH })).json()) as {
      data: { status: string }[];
    };
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((item) => item.status === 'resolved')).toBe(true);
  });

  it('answers a create with a Location naming the body’s id and an ETag of the body', async () => {
    const response = await fetch(`${mock.url}/v1/policies`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', severity: 'low' }),
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string };
    expect(response.headers.get('location')).toBe(`/v1/policies/${body.id}`);
    expect(response.headers.get('etag')).toMatch(/^"[!#-~]{1,128}"$/);
    // Prism would copy the header's example value; a first create is never a replay.
    expect(response.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers CORS for any origin, echoed, never with credentials, exposing the headers a client reads', async () => {
    const origin = 'http://localhost:5173';
    const preflight = await fetch(`${mock.url}/v1/policies/pol_01jbz1a2b3c4d5e6f7g8h9j0k1`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'PUT' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('If-Match');
    const list = await fetch(`${mock.url}/v1/policies`, { headers: { ...AUTH, origin } });
    expect(list.headers.get('access-control-allow-origin')).toBe(origin);
    expect(list.headers.get('access-control-allow-credentials')).toBeNull();
    expect(list.headers.get('access-control-expose-headers')).toContain('ETag');
  });
});
