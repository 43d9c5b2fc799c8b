// A delivery's replay on its own, against a small target in this process that sends each webhook
// a signed delivery when a finding is created: it starts its receiver, points its webhook there
// with a secret of its own, judges the signature it gets, deletes the webhook, and says so.
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../src/kit/http.ts';
import { deliveryReproduction, deliverySymptomOf } from '../src/kit/repro-delivery.ts';
import { headline } from '../src/kit/rules/headline.ts';
import { ContractViolation, rulesViolated } from '../src/kit/verify.ts';
import { violationsOf } from '../src/kit/violation.ts';
import { runReplay } from './replay-run.ts';

const FINDING_CREATED = 'findingCreated (webhook finding.created)';
const RUN_SECRET = 'kit_0123456789abcdef0123456789abcdef';

const exchange = (path: string, body: unknown, status: number, json: unknown): Exchange => ({
  request: {
    method: 'POST',
    url: `http://run.example${path}`,
    headers: { Authorization: 'Bearer <api-key>', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  },
  status,
  headers: new Headers(),
  mediaType: 'application/json',
  text: JSON.stringify(json),
  json,
});

/** The run's exchanges: the signed webhook on the kit's receiver, then the create that caused finding.created. */
const RUN = [
  exchange(
    '/v1/webhooks',
    { url: 'http://127.0.0.1:9/events/token', events: ['finding.created'], secret: RUN_SECRET, enabled: true },
    201,
    { id: 'whk_run0000001' },
  ),
  exchange('/v1/findings', { title: 'kit-finding' }, 201, { id: 'fnd_run0000001' }),
];

const wrongSignature = () => {
  const error = new ContractViolation(
    FINDING_CREATED,
    'delivery',
    rulesViolated(['delivery-headers.1'], "X-Service-Signature does not verify against the raw body and the webhook's secret"),
  );
  return violationsOf('delivery', error, RUN)[0]!;
};

interface Target {
  url: string;
  secrets: string[];
  deleted: string[];
  server: Server;
}

/** Webhooks and findings; each finding created is delivered to every webhook, signed right or (`wrong`) with another key. */
async function startTarget(wrong: boolean): Promise<Target> {
  const webhooks = new Map<string, { url: string; secret: string }>();
  const target: Target = { url: '', secrets: [], deleted: [], server: createServer() };
  target.server.on('request', async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const path = req.url ?? '';
    if (req.method === 'POST' && path === '/v1/webhooks') {
      const { url, secret } = JSON.parse(text) as { url: string; secret: string };
      const id = `whk_${webhooks.size + 1}abcdef`;
      webhooks.set(id, { url, secret });
      target.secrets.push(secret);
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id, url }));
    } else if (req.method === 'DELETE' && path.startsWith('/v1/webhooks/')) {
      target.deleted.push(path.slice('/v1/webhooks/'.length));
      res.writeHead(204).end();
    } else if (req.method === 'POST' && path === '/v1/findings') {
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'fnd_1abcdef' }));
      for (const { url, secret } of webhooks.values()) {
        const body = JSON.stringify({ event: 'finding.created', data: { finding_id: 'fnd_1abcdef' } });
        const key = wrong ? `${secret}-not` : secret;
        await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-service-event': 'finding.created',
            'x-service-signature': `sha256=${createHmac('sha256', key).update(body).digest('hex')}`,
          },
          body,
        });
      }
    } else res.writeHead(404).end();
  });
  target.server.listen(0, '127.0.0.1');
  await once(target.server, 'listening');
  target.url = `http://127.0.0.1:${(target.server.address() as AddressInfo).port}`;
  return target;
}

const scratch = mkdtempSync(join(tmpdir(), 'delivery-replay-'));
const targets: Target[] = [];
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => {
  for (const target of targets.splice(0)) target.server.close();
});

/** Writes the replay, runs it alone with node against a target: its output and exit code. */
async function replayAgainst(wrong: boolean): Promise<{ code: number; stdout: string; target: Target; file: string }> {
  const target = await startTarget(wrong);
  targets.push(target);
  const violation = wrongSignature();
  const symptom = deliverySymptomOf(violation)!;
  const { script, runner } = deliveryReproduction(RUN, {
    title: 'findingCreated › delivery',
    report: 'the report',
    baseUrl: 'http://run.example',
    symptom,
    headline: headline(violation),
  });
  expect(runner).toBe('node');
  const file = join(scratch, `replay-${wrong}.mjs`);
  writeFileSync(file, script);
  const ran = await runReplay(file, runner, target.url, { apiKey: 'key-from-the-environment' });
  return { ...ran, target, file };
}

describe('a delivery failure replays on its own', () => {
  it('names the signature fault it judges', () => {
    expect(deliverySymptomOf(wrongSignature())).toEqual({ event: 'finding.created', fault: { signature: 'X-Service-Signature' } });
  });

  it('against a target that signs wrongly: reproduced (exit 1), with its own secret, and its webhook deleted', async () => {
    const { code, stdout, target, file } = await replayAgainst(true);
    expect(stdout).toMatch(/^reproduced: rule delivery-headers\.1: /m);
    expect(code).toBe(1);
    expect(target.secrets).toHaveLength(1);
    expect(target.secrets[0]).toMatch(/^replay_[0-9a-f]{48}$/);
    expect(target.deleted).toEqual(['whk_1abcdef']);
    const text = readFileSync(file, 'utf8');
    for (const secret of [RUN_SECRET, 'key-from-the-environment', ...target.secrets]) expect(text).not.toContain(secret);
  });

  it('against a target that signs as the document says: not reproduced (exit 0)', async () => {
    const { code, stdout, target } = await replayAgainst(false);
    expect(stdout).toMatch(/^not reproduced$/m);
    expect(code).toBe(0);
    expect(target.deleted).toHaveLength(1);
  });
});
