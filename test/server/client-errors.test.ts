// Requests Node's HTTP parser refuses (oversized headers, garbage) get problem documents too, and
// the server keeps serving afterwards.
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM, schemaErrors, startTestServer, type TestServer, WRITER_KEY } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** Sends raw bytes and returns everything the server answered before closing the connection. */
async function raw(bytes: string): Promise<{ status: number; headers: string; body: string }> {
  const { port, hostname } = new URL(t.url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.end(bytes);
  await once(socket, 'close');
  const text = Buffer.concat(chunks).toString('utf8');
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head, body };
}

describe('requests the HTTP parser refuses', () => {
  it('header fields over 16 KiB: 431 problem', async () => {
    const answer = await raw(
      `GET /v1/policies HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${WRITER_KEY}\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer.status).toBe(431);
    expect(answer.headers).toMatch(/content-type: application\/problem\+json/i);
    const body = JSON.parse(answer.body);
    expect(schemaErrors('Problem', body)).toBe('');
    expect(body).toMatchObject({ type: PROBLEM('headers-too-large'), status: 431 });
  });

  it('a request that is not HTTP: 400 problem', async () => {
    const answer = await raw('HELLO THERE\r\n\r\n');
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.body);
    expect(schemaErrors('Problem', body)).toBe('');
    expect(body).toMatchObject({ type: PROBLEM('malformed-request'), status: 400 });
  });

  it('the server still answers afterwards', async () => {
    const response = await t.fetch('/v1/policies');
    expect(response.status).toBe(200);
  });
});
