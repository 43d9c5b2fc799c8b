// A target that is briefly unable to answer (503 service-unavailable with Retry-After, as the
// document allows of every operation) is asked again after the wait, as a client would, so a busy
// moment does not fail whatever check met it; a create is asked again only under its
// Idempotency-Key, and a 503 without Retry-After is an answer to judge.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../src/kit/http.ts';
import { listening } from './replay-run.ts';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

/** A target whose first answer to each request line is 503 (with `retryAfter` when given), then 200. */
async function start(retryAfter?: string): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  server = createServer((req, res) => {
    const line = `${req.method} ${req.url}`;
    const first = !seen.includes(line);
    seen.push(line);
    req.resume();
    if (first) {
      res.writeHead(503, { 'content-type': 'application/problem+json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) });
      res.end(JSON.stringify({ type: 'https://secmon.dev/problems/service-unavailable', title: 'Service unavailable', status: 503 }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":[],"next_cursor":null}');
  });
  return { url: await listening(server), seen };
}

describe('a 503 with Retry-After', () => {
  it('a read is sent again after the wait, which the kit reports, and judged on the second answer', async () => {
    const target = await start('1');
    const waits: string[] = [];
    const http = createHttpClient({ baseUrl: target.url, apiKey: 'kit-test-key', onWait: (ms, why) => waits.push(`${ms} ${why}`) });
    const exchange = await http.send({ method: 'GET', path: '/v1/policies' });
    expect(exchange.status).toBe(200);
    expect(target.seen).toEqual(['GET /v1/policies', 'GET /v1/policies']);
    expect(waits).toEqual(['1000 503 on GET /v1/policies, Retry-After: 1']);
  });

  it('a create is sent again under its Idempotency-Key, and only under one', async () => {
    const target = await start('1');
    const http = createHttpClient({ baseUrl: target.url, apiKey: 'kit-test-key' });
    const keyed = await http.send({ method: 'POST', path: '/v1/policies', body: {}, headers: { 'Idempotency-Key': 'kit-retry-1' } });
    expect(keyed.status).toBe(200);
    const bare = await http.send({ method: 'POST', path: '/v1/findings', body: {} });
    expect(bare.status).toBe(503);
    expect(target.seen).toEqual(['POST /v1/policies', 'POST /v1/policies', 'POST /v1/findings']);
  });
});

describe('a 503 without Retry-After', () => {
  it('is the answer: not sent again', async () => {
    const target = await start();
    const http = createHttpClient({ baseUrl: target.url, apiKey: 'kit-test-key' });
    expect((await http.send({ method: 'GET', path: '/v1/policies' })).status).toBe(503);
    expect(target.seen).toEqual(['GET /v1/policies']);
  });
});
