// The kit asks for bodies without a content coding (Accept-Encoding: identity), but HTTP lets a server
// (or a gateway in front of it) code a body anyway: such an answer is judged on its decoded body, and
// one the kit cannot decode fails with a message that says so, not as a target that did not answer.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../src/kit/http.ts';
import { listening } from './replay-run.ts';

const PAGE = '{"data":[],"next_cursor":null}';
const asked: IncomingHttpHeaders[] = [];
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.headers);
    req.resume();
    const coding = new URL(req.url!, 'http://x').searchParams.get('coding');
    const body = coding === 'gzip' ? gzipSync(PAGE) : coding === 'br' ? brotliCompressSync(PAGE) : Buffer.from(PAGE);
    res.writeHead(200, { 'content-type': 'application/json', ...(coding ? { 'content-encoding': coding } : {}) }).end(body);
  });
  url = await listening(server);
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('content codings', () => {
  const http = () => createHttpClient({ baseUrl: url, apiKey: 'kit-test-key' });

  it('asks for none, and reads a gzip or br body it was sent anyway as the JSON it codes', async () => {
    for (const coding of ['gzip', 'br']) {
      const exchange = await http().send({ method: 'GET', path: '/v1/policies', query: { coding } });
      expect(exchange.json, coding).toEqual({ data: [], next_cursor: null });
    }
    expect(asked.map((headers) => headers['accept-encoding'])).toEqual(['identity', 'identity']);
  });

  it('reads an empty answer that names a coding (a HEAD, a 204 or a 304) as empty', async () => {
    const exchange = await http().send({ method: 'HEAD', path: '/v1/policies', query: { coding: 'gzip' } });
    expect([exchange.status, exchange.text]).toEqual([200, '']);
  });

  it('fails a body in a coding it cannot decode with a message naming the coding', async () => {
    await expect(http().send({ method: 'GET', path: '/v1/policies', query: { coding: 'constructor' } })).rejects.toThrow(
      /the answer's body is in the content coding constructor, which the kit cannot decode/,
    );
    await expect(http().send({ method: 'GET', path: '/v1/policies', query: { coding: 'zstd-unknown' } })).rejects.toThrow(
      /GET \S+\/v1\/policies\?coding=zstd-unknown: the answer's body is in the content coding zstd-unknown, which the kit cannot decode/,
    );
  });
});
