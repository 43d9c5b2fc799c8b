// When the shared quota count cannot be read (PostgreSQL unreachable, a pool that gives no
// connection in time), the request is refused with 503 and Retry-After, never let through
// unmetered, and the answer still carries the RateLimit headers the document promises of every
// authenticated answer, saying to wait as long as Retry-After does.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemHandler, RETRY_AFTER_SECONDS } from '../../server/http/problems.ts';
import { rateLimitPerKey } from '../../server/http/rate-limit.ts';
import { SharedRateLimitStore } from '../../server/http/shared-rate-limit.ts';
import type { SharedCounters } from '../../server/store/store.ts';
import { PROBLEM } from './helpers.ts';

const refused = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
const unreachable: SharedCounters = { get: refused, increment: refused, decrement: refused, reset: refused };

let url = '';
let close = () => {};
let handled = 0;
beforeAll(async () => {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.principal = { id: 'key-fingerprint', scopes: new Set(['read']) };
    next();
  });
  app.use(rateLimitPerKey(120, 60, new SharedRateLimitStore(unreachable)));
  app.get('/v1/policies', (_req, res) => {
    handled++;
    res.json({ data: [], next_cursor: null });
  });
  app.use(problemHandler(pino({ level: 'silent' })));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe('a quota count the database cannot give', () => {
  it('is a 503 with Retry-After that still states the policy, and r=0 until that Retry-After', async () => {
    const response = await fetch(`${url}/v1/policies`);
    expect(response.status).toBe(503);
    expect(handled).toBe(0);
    expect(((await response.json()) as { type: string }).type).toBe(PROBLEM('service-unavailable'));
    const retryAfter = RETRY_AFTER_SECONDS.unavailable;
    expect(response.headers.get('retry-after')).toBe(String(retryAfter));
    expect(response.headers.get('ratelimit-policy')).toBe('"120-in-1min"; q=120; w=60');
    expect(response.headers.get('ratelimit')).toBe(`"120-in-1min"; r=0; t=${retryAfter}`);
  });
});
