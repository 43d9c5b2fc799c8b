// A delivery's replay on its own, against a small target in this process that sends each webhook a
// delivery when a finding is created, right or with one fault: the replay starts its receiver,
// points its webhook there with a secret of its own, judges what it gets as the kit did, deletes
// the webhook, and says whether the fault is there. And a failure the kit found on the reference
// server behind a fault proxy, on an event type other than the first it checked, replayed alone.
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { found } from '../src/kit/failure.ts';
import { deliveryReproduction } from '../src/kit/repro-delivery.ts';
import { type DeliveryFault, deliverySymptomOf } from '../src/kit/repro-delivery-symptom.ts';
import { headline } from '../src/kit/rules/headline.ts';
import { runKit } from '../src/kit/runner.ts';
import type { Discrepancy } from '../src/kit/verify.ts';
import { type Violation, violationsOf } from '../src/kit/violation.ts';
import { failureOf } from './check-failure.ts';
import { deliveryHeader } from './fault-dsl.ts';
import { startFaultProxy } from './fault-proxy.ts';
import { expectReplayed } from './prove.ts';
import { startReferenceTarget } from './reference-target.ts';
import { listening, posted, replayBench, runReplay } from './replay-run.ts';

const FINDING_CREATED = 'findingCreated (webhook finding.created)';
const RUN_SECRET = 'kit_0123456789abcdef0123456789abcdef';
const SCHEMA = '#/webhooks/finding.created/post/requestBody/content/application~1json/schema';

/** The run's exchanges: the signed webhook on the kit's receiver, then the create that caused finding.created. */
const RUN = [
  posted('/v1/webhooks', { url: 'http://127.0.0.1:9/events/token', events: ['finding.created'], secret: RUN_SECRET, enabled: true }, 201, {
    id: 'whk_run0000001',
  }),
  posted('/v1/findings', { title: 'kit-finding' }, 201, { id: 'fnd_run0000001' }),
];

const violationOf = (discrepancies: Discrepancy[]): Violation =>
  violationsOf(
    'delivery',
    failureOf('delivery', (check) => check.failAll({ at: FINDING_CREATED, found: discrepancies })),
    RUN,
  )[0]!;

interface Sent {
  headers: Record<string, string>;
  body: string;
}
/** What the target sends a webhook with `secret` for a finding: undefined sends nothing. */
type Sender = (secret: string) => Sent | undefined;

const hmac = (secret: string, ...parts: string[]) => parts.reduce((h, part) => h.update(part), createHmac('sha256', secret));
/** A delivery of `data`, signed both ways as the document says (the webhook-signature entry keyed with `entryKey`). */
const delivery = (secret: string, data: Record<string, unknown> = { finding_id: 'fnd_1abcdef' }, entryKey = secret): Sent => {
  const body = JSON.stringify({ event: 'finding.created', data });
  const [id, time] = ['msg_1', String(Math.floor(Date.now() / 1000))];
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-service-event': 'finding.created',
      'x-service-signature': `sha256=${hmac(secret, body).digest('hex')}`,
      'webhook-id': id,
      'webhook-timestamp': time,
      'webhook-signature': `v1,${hmac(entryKey, `${id}.${time}.`, body).digest('base64')}`,
    },
  };
};

const CASES: { fault: DeliveryFault; violation: Violation; faulty: Sender }[] = [
  {
    fault: { signature: 'X-Service-Signature' },
    violation: violationOf(
      found({
        rule: ['delivery-headers.1'],
        observed: "X-Service-Signature does not verify against the raw body and the webhook's secret",
      }),
    ),
    faulty: (secret) => {
      const sent = delivery(secret);
      return { ...sent, headers: { ...sent.headers, 'x-service-signature': `sha256=${hmac(`${secret}-not`, sent.body).digest('hex')}` } };
    },
  },
  {
    fault: { signature: 'webhook-signature' },
    violation: violationOf(
      found({
        rule: ['param.StandardSignatureHeader.1'],
        observed:
          "no webhook-signature entry is the v1, base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{raw body} with the webhook's secret",
      }),
    ),
    faulty: (secret) => delivery(secret, undefined, `${secret}-not`),
  },
  {
    fault: { missing: { at: '/data', name: 'finding_id' } },
    violation: violationOf([
      {
        aspect: 'response-schema',
        message: `the body breaks the finding.created schema (${SCHEMA})`,
        details: [`/data must have required property 'finding_id' (value: {})`],
        pointer: SCHEMA,
      },
    ]),
    faulty: (secret) => delivery(secret, {}),
  },
  {
    fault: { absent: true },
    violation: violationOf(
      found({
        rule: ['findingCreated.1'],
        observed: 'no finding.created delivery reached the receiver after: POST /v1/findings (fnd_run0000001)',
      }),
    ),
    faulty: () => undefined,
  },
];

interface Target {
  url: string;
  secrets: string[];
  deleted: string[];
  server: Server;
}

/** Webhooks and findings; each finding created is sent to every webhook as `send` makes it. */
async function startTarget(send: Sender): Promise<Target> {
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
        const sent = send(secret);
        if (sent) await fetch(url, { method: 'POST', ...sent });
      }
    } else res.writeHead(404).end();
  });
  target.url = await listening(target.server);
  return target;
}

const { scratch, targets } = replayBench<Target>('delivery-replay-');

/** Writes the violation's replay and runs it alone with node against a target sending as `send` does. */
async function replayAgainst(violation: Violation, send: Sender) {
  const target = await startTarget(send);
  targets.push(target);
  const { script, runner } = deliveryReproduction(RUN, {
    title: 'findingCreated › delivery',
    report: 'the report',
    baseUrl: 'http://run.example',
    symptom: deliverySymptomOf(violation)!,
    headline: headline(violation),
  });
  expect(runner).toBe('node');
  const file = join(scratch, `replay-${targets.length}-${Date.now()}.mjs`);
  writeFileSync(file, script);
  const ran = await runReplay(file, runner, target.url, { apiKey: 'key-from-the-environment' });
  return { ...ran, target, file };
}

describe('a delivery failure replays on its own', () => {
  for (const { fault, violation, faulty } of CASES) {
    const kind = 'signature' in fault ? fault.signature : Object.keys(fault)[0];
    it(`${kind}: the symptom it judges is the one the kit saw`, () => {
      expect(deliverySymptomOf(violation)).toEqual({ event: 'finding.created', fault });
    });

    it(`${kind}: reproduced (exit 1) against a target with the fault, with a secret of its own and its webhook deleted`, async () => {
      const { code, stdout, target, file } = await replayAgainst(violation, faulty);
      expect(stdout).toContain(`reproduced: ${headline(violation)}`);
      expect(code).toBe(1);
      expect(target.secrets).toHaveLength(1);
      expect(target.secrets[0]).toMatch(/^replay_[0-9a-f]{48}$/);
      expect(target.deleted).toEqual(['whk_1abcdef']);
      const text = readFileSync(file, 'utf8');
      for (const secret of [RUN_SECRET, 'key-from-the-environment', ...target.secrets]) expect(text).not.toContain(secret);
    });

    it(`${kind}: not reproduced (exit 0) against a target sending as the document says`, async () => {
      const { code, stdout, target } = await replayAgainst(violation, (secret) => delivery(secret));
      expect(stdout).toMatch(/^not reproduced$/m);
      expect(code).toBe(0);
      expect(target.deleted).toEqual(['whk_1abcdef']);
    });
  }

  it('a violation of a delivery it cannot judge (a value other than the one caused) gets no delivery replay', () => {
    expect(
      deliverySymptomOf(violationOf(found({ rule: ['findingCreated.1'], observed: 'data.finding_id is "fnd_x", expected "fnd_y"' }))),
    ).toBe(undefined);
  });
});

describe('a delivery fault seen only on a later event type', () => {
  // The event scenario runs once, for the first webhook checked: a later one's failure owes its
  // webhook, its receiver and the requests that caused its event to that first check.
  const FINDING_RESOLVED = 'findingResolved (webhook finding.resolved)';
  const wrongOnResolved = deliveryHeader('x-service-signature', () => `sha256=${'0'.repeat(64)}`, 'finding.resolved');

  it('replays with its webhook: reproduced (exit 1) against the faulty target, not reproduced (exit 0) against a correct one', async () => {
    const target = await startReferenceTarget();
    const proxy = await startFaultProxy(target.server.url, wrongOnResolved);
    try {
      const run = await runKit(
        { ...target.kit, baseUrl: proxy.url, eventTimeoutMs: 5_000 },
        { only: (planned) => planned.check === 'delivery' && [FINDING_CREATED, FINDING_RESOLVED].includes(planned.subjects[0]!) },
      );
      expect(run.results.map((r) => [r.subjects[0], r.outcome])).toEqual([
        [FINDING_CREATED, 'passed'],
        [FINDING_RESOLVED, 'failed'],
      ]);
      await expectReplayed(run.results[1]!, wrongOnResolved);
    } finally {
      await proxy.close();
      await target.server.close();
    }
  }, 120_000);
});
