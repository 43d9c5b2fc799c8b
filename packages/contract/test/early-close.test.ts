// A target that answers 413 to an oversized body and closes the connection while the body is still
// being written: the kit reads that answer (closing early is the server's right) instead of failing
// with a write error, and a target that closes without any answer is reported as exactly that.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../src/kit/http.ts';

const PROBLEM = JSON.stringify({ type: 'https://secmon.dev/problems/payload-too-large', title: 'Payload too large', status: 413 });
// Far more than a socket buffers, so the close comes while the kit is still writing.
const OVERSIZED = JSON.stringify({ description: 'x'.repeat(24 * 1024 * 1024) });

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

async function start(answer: boolean): Promise<string> {
  server = createServer((req, res) => {
    if (!answer) {
      req.socket.destroy();
      return;
    }
    res.writeHead(413, { 'content-type': 'application/problem+json', connection: 'close' });
    res.end(PROBLEM, () => req.socket.resetAndDestroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('an early close while the request body is being sent', () => {
  it('after a 413: the kit gets the 413 and its problem', async () => {
    const http = createHttpClient({ baseUrl: await start(true), apiKey: 'kit-test-key' });
    for (let attempt = 0; attempt < 3; attempt++) {
      const exchange = await http.send({ method: 'POST', path: '/v1/policies', rawBody: OVERSIZED });
      expect([exchange.status, exchange.mediaType, (exchange.json as { status?: number }).status]).toEqual([
        413,
        'application/problem+json',
        413,
      ]);
    }
  });

  it('without an answer: the failure says the target closed while the body was being sent, and no answer came', async () => {
    const http = createHttpClient({ baseUrl: await start(false), apiKey: 'kit-test-key' });
    await expect(http.send({ method: 'POST', path: '/v1/policies', rawBody: OVERSIZED })).rejects.toThrow(
      /got no answer: the target closed the connection while the \d+-byte body was still being sent \(\w+\), and sent no answer before closing/,
    );
  });
});
