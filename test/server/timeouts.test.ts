// Time-outs that answer: header fields or a body that trickle in get a 408 problem document within
// the configured time (small values here), and once shutdown begins responses say
// `Connection: close`.
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PROBLEM, schemaErrors, startTestServer, type TestServer, WRITER_KEY } from './helpers.ts';

const HTTP = { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 5000 };

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function open(server: TestServer): Promise<{ socket: Socket; answer: Promise<string> }> {
  const { port, hostname } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const answer = new Promise<string>((resolve) => socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8'))));
  return { socket, answer };
}

/** Writes `text` a byte every `everyMs` until the socket closes; resolves when it has. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let index = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || index >= text.length) return clearInterval(timer);
    socket.write(text[index++]!);
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

function expect408(answer: string): void {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 408 /);
  expect(head).toMatch(/content-type: application\/problem\+json/i);
  const problem = JSON.parse(body);
  expect(schemaErrors('Problem', problem)).toBe('');
  expect(problem).toMatchObject({ type: PROBLEM('request-timeout'), status: 408 });
}

describe('HTTP time-outs', () => {
  it('header fields sent a byte at a time: 408 problem within the header time-out', async () => {
    t = await startTestServer({ http: HTTP });
    const { socket, answer } = await open(t);
    const started = performance.now();
    trickle(
      socket,
      `GET /v1/policies HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${WRITER_KEY}\r\nX-Slow: ${'a'.repeat(500)}\r\n\r\n`,
      20,
    );
    expect408(await answer);
    // The limit plus Node's checking interval and a loaded machine's slack; Node's defaults took 88 s.
    expect(performance.now() - started).toBeLessThan(HTTP.headersTimeoutMs + 2000);
  });

  it('a body that trickles: 408 problem within the request time-out', async () => {
    t = await startTestServer({ http: HTTP });
    const { socket, answer } = await open(t);
    const body = JSON.stringify({ name: 'Slow policy', severity: 'low' });
    socket.write(
      `POST /v1/policies HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${WRITER_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const started = performance.now();
    trickle(socket, body, 100);
    expect408(await answer);
    expect(performance.now() - started).toBeLessThan(HTTP.requestTimeoutMs + 2000);
    expect((await t.fetch('/v1/policies')).status).toBe(200);
  });

  it('responses carry Connection: close once shutdown has begun', async () => {
    t = await startTestServer();
    const { socket, answer } = await open(t);
    const body = JSON.stringify({ name: 'During shutdown', severity: 'low' });
    socket.write(
      `POST /v1/policies HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${WRITER_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = t.close();
    t = undefined;
    socket.write(body.slice(5));
    const [head = ''] = (await answer).split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 201 /);
    expect(head).toMatch(/^connection: close$/im);
    await closed;
  });
});
