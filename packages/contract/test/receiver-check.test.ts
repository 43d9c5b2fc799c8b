// `secmon-contract receiver`: the example receiver passes every case; a receiver that answers 200
// to everything, and one that checks only the untimestamped signature, fail exactly the cases
// they should. In-process here; test/packages/ runs the packed kit from outside the repository.
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { verifySignature } from 'secmon-api/src/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReceiverApp } from '../../../examples/receiver/app.ts';
import { receiverCommand, runReceiverCheck } from '../src/kit/receiver-check.ts';

const SECRET = 'whsec_receiver_check_5c1f0e9a';
const servers: Server[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'secmon-receiver-check-'));

async function listen(server: Server): Promise<string> {
  servers.push(server.listen(0, '127.0.0.1'));
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

let example: string;
let acceptsAll: string;
let bodyOnly: string;
beforeAll(async () => {
  example = await listen(createServer(createReceiverApp({ secret: SECRET, logger: pino({ level: 'silent' }) })));
  acceptsAll = await listen(createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end())));
  // Verifies X-Service-Signature over the raw body, but ignores the timestamped one.
  bodyOnly = await listen(
    createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      res.writeHead(verifySignature(Buffer.concat(chunks), req.headers['x-service-signature'], SECRET) ? 204 : 401).end();
    }),
  );
});
afterAll(() => {
  for (const server of servers) server.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function check(url: string, extra: string[] = [], env: NodeJS.ProcessEnv = { SECMON_WEBHOOK_SECRET: SECRET }) {
  let out = '';
  let err = '';
  const code = await receiverCommand(['--url', url, ...extra], env, { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}

const failed = (out: string) => [...out.matchAll(/^✗ (.+?) {2}\d+ ms/gm)].map((match) => match[1]);

describe('secmon-contract receiver', () => {
  it('passes the example receiver, every case held, with a JUnit report; the secret comes from the environment', async () => {
    const report = join(scratch, 'example.xml');
    const { code, out } = await check(example, ['--report', report]);
    expect(code, out).toBe(0);
    expect(out).toMatch(/receiver PASSED: 12 of 12 cases hold/);
    for (const type of ['finding.created', 'scan.completed', 'compliance.changed']) expect(out).toContain(`✓ accepts ${type}`);
    expect(out).toMatch(/✓ refuses a timestamp outside the 5-minute tolerance {2}\d+ ms {2}\(answered 401\)/);
    const junit = readFileSync(report, 'utf8');
    expect(junit).toMatch(/<testsuites name="secmon-contract" tests="12" failures="0"/);
    expect(junit).toContain('<testcase classname="receiver" name="accepts a redelivery of the same X-Service-Delivery"');
    expect(out).not.toContain(SECRET);
  });

  it('fails a receiver that answers 200 to everything on each delivery it must refuse, and exits 1', async () => {
    const report = join(scratch, 'accepts-all.xml');
    const { code, out } = await check(acceptsAll, ['--secret', SECRET, '--report', report], {});
    expect(code).toBe(1);
    expect(failed(out)).toEqual([
      'refuses a delivery without signature',
      'refuses a wrong signature',
      'refuses a body changed after signing',
      'refuses a timestamp outside the 5-minute tolerance',
      'refuses a signature made with another secret',
    ]);
    expect(out).toMatch(/refuses a body changed after signing: answered 200; it must be refused/);
    expect(readFileSync(report, 'utf8')).toMatch(/tests="12" failures="5"/);
  });

  it('fails a receiver that checks only the untimestamped signature on the replay case alone', async () => {
    const { code, out } = await check(bodyOnly);
    expect(code).toBe(1);
    expect(failed(out)).toEqual(['refuses a timestamp outside the 5-minute tolerance']);
  });

  it('fails every case of a receiver with another secret that accepts nothing', async () => {
    const { code, out } = await check(example, [], { SECMON_WEBHOOK_SECRET: 'whsec_not_the_receivers_0000' });
    expect(code).toBe(1);
    expect(failed(out)).toHaveLength(7);
  });

  it('fails an accepted case answered after the time-out (the service gives up after 10 s; here 150 ms)', async () => {
    const slow = await listen(createServer((req, res) => req.resume().on('end', () => setTimeout(() => res.writeHead(200).end(), 500))));
    const results = await runReceiverCheck({ url: slow, secret: SECRET, timeoutMs: 150 });
    expect(results[0]).toMatchObject({
      outcome: 'failed',
      error: expect.stringMatching(/^accepts finding\.created: no answer within 150 ms/),
    });
  });

  it('answers bad options with exit 2, what is wrong and a pointer to its usage', async () => {
    const none = await check(example, [], {});
    expect(none.code).toBe(2);
    expect(none.err).toBe(
      "secmon-contract receiver: a secret is required: set SECMON_WEBHOOK_SECRET (or pass --secret)\nRun 'secmon-contract receiver --help' for its usage.\n",
    );
    expect((await check('ftp://example.com')).err).toContain('--url must be an http(s) URL');
  });
});
