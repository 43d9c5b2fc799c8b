// Faults nobody wrote a check for, caught by the model-based sequences: each is a few declarative
// lines over the reference server (fault-dsl.ts), and the default sequences must fail naming the
// rule it breaks. The run is the one check, not the whole kit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKit } from '../contract/kit/runner.ts';
import { all, field, header, requestBody, requestHeader } from './fault-dsl.ts';
import type { Fault } from './fault-proxy.ts';
import { startFaultProxy } from './fault-proxy.ts';
import { generatedProofs } from './model-proofs.ts';
import { type ReferenceTarget, startReferenceTarget } from './reference-target.ts';

let reference: ReferenceTarget;
beforeAll(async () => {
  reference = await startReferenceTarget();
});
afterAll(async () => {
  await reference?.server.close();
});

const TWO_HOURS = 2 * 60 * 60 * 1000;
const shifted = (value: unknown) => (typeof value === 'string' ? new Date(Date.parse(value) + TWO_HOURS).toISOString() : value);
/** Local time of a UTC+2 server written with `Z`. */
function localTimes(json: Record<string, unknown>): void {
  for (const item of Array.isArray(json.data) ? (json.data as Record<string, unknown>[]) : [json])
    for (const name of ['created_at', 'updated_at']) if (name in item) item[name] = shifted(item[name]);
}

/** An implementation that keeps delivering to webhooks its clients disabled, while saying they are disabled. */
function ignoresDisabling(): Fault {
  const disabled = new Set<string>();
  const rewrite = requestBody({ path: /^\/v1\/webhooks/ }, (json) => {
    if (json.enabled === false) json.enabled = true;
  });
  const shown = field({ path: /^\/v1\/webhooks/ }, (json, request) => {
    const asked = request.body.length > 0 ? (JSON.parse(request.body.toString('utf8')) as { enabled?: unknown }).enabled : undefined;
    if (typeof json.id === 'string' && asked === false) disabled.add(json.id);
    if (typeof json.id === 'string' && asked === true) disabled.delete(json.id);
    for (const item of Array.isArray(json.data) ? (json.data as Record<string, unknown>[]) : [json])
      if (disabled.has(String(item.id))) item.enabled = false;
  });
  return all(rewrite, shown);
}

const FAULTS: Record<string, { fault: Fault; rule: string }> = {
  'If-Match compared weakly (a W/ tag accepted)': {
    fault: requestHeader('if-match', (value) => value.replace(/^W\//, '')),
    rule: 'idempotency-and-concurrency.3',
  },
  'an Idempotency-Key replay answers the resource as it is now': {
    fault: {
      response: async (request, response, upstream) => {
        const location = response.headers.location;
        if (response.headers['idempotent-replayed'] !== 'true' || !location) return undefined;
        const now = await upstream('GET', new URL(location, 'http://x').pathname, { authorization: request.headers.authorization ?? '' });
        return now.status === 200 ? { ...response, body: now.body } : undefined;
      },
    },
    rule: 'idempotency-and-concurrency.1',
  },
  'a validation problem names only the first invalid part': {
    fault: field({ status: 400 }, (json) => {
      if (Array.isArray(json.errors)) json.errors = json.errors.slice(0, 1);
    }),
    rule: 'errors.2',
  },
  'RateLimit says the same remaining count every time': {
    fault: header({}, 'ratelimit', (value) => value?.replace(/r=\d+/, 'r=999')),
    rule: 'rate-limits.2',
  },
  'timestamps in local time (UTC+2) written with Z': {
    fault: field({}, localTimes),
    rule: 'limits.3',
  },
  'a targeted test event is sent to every subscribed webhook': {
    fault: requestBody({ method: 'POST', path: /^\/_simulator\/events/ }, (json) => {
      delete json.webhook_id;
    }),
    rule: 'test-support-not-part-of-the-v1-contract.4',
  },
  'events are still sent to a webhook disabled by its owner': { fault: ignoresDisabling(), rule: 'webhooks.2' },
};

describe('faults the model-based sequences catch', () => {
  const generated = Object.fromEntries(generatedProofs().map(({ name, fault, rule }) => [name, { fault, rule }]));
  for (const [name, { fault, rule }] of Object.entries({ ...FAULTS, ...generated })) {
    it(`${name}: caught, naming rule ${rule}`, async () => {
      const proxy = await startFaultProxy(reference.server.url, fault);
      try {
        const run = await runKit(
          { ...reference.kit, baseUrl: proxy.url, eventTimeoutMs: 3_000 },
          { only: (planned) => planned.check === 'model-sequences' },
        );
        const [result] = run.results;
        expect(result?.outcome, result?.note).toBe('failed');
        expect(result?.error).toContain(`rule ${rule}`);
      } finally {
        await proxy.close();
      }
    }, 120_000);
  }
});
