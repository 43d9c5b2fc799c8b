// A table of malformed requests for every operation: each gets the right 4xx problem (never a
// 5xx) and the stored data is byte-for-byte the same afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_ID, PROBLEM, readProblem, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let ids: { policy: string; finding: string; webhook: string };

beforeAll(async () => {
  t = await startTestServer();
  const create = async (path: string, json: object) => (await (await t.fetch(path, { method: 'POST', json })).json()).id as string;
  const policy = await create('/v1/policies', { name: 'p', severity: 'high', frameworks: [{ framework: 'cis', control: '1.1' }] });
  ids = {
    policy,
    finding: await create('/v1/findings', { title: 'f', severity: 'low', device_id: DEVICE_ID, policy_id: policy }),
    webhook: await create('/v1/webhooks', { url: 'https://a.example.com/h', events: ['finding.created'], secret: 'a-secret-of-16-chars+' }),
  };
});
afterAll(() => t.close());

async function snapshot(): Promise<string> {
  const parts = [];
  for (const list of ['policies', 'findings', 'webhooks']) parts.push(await (await t.fetch(`/v1/${list}?limit=100`)).text());
  return parts.join('\n');
}

type Case = [label: string, method: string, path: () => string, body: string | object | undefined, status: number, kind: string];

const long = (n: number) => 'x'.repeat(n);
const policy = { name: 'p', severity: 'high' };
const finding = { title: 'f', severity: 'low', device_id: DEVICE_ID };
const findingUpdate = { title: 'f', severity: 'low', status: 'open' };
const webhook = { url: 'https://a.example.com/h', events: ['finding.created'] };
const V = 'validation-error';

const cases: Case[] = [
  // listPolicies / listFindings / listWebhooks
  ['limit as text', 'GET', () => '/v1/policies?limit=ten', undefined, 400, V],
  ['limit too big', 'GET', () => '/v1/findings?limit=1000', undefined, 400, V],
  ['negative limit', 'GET', () => '/v1/webhooks?limit=-1', undefined, 400, V],
  ['unknown filter', 'GET', () => '/v1/findings?owner=me', undefined, 400, V],
  ['bad enum filter', 'GET', () => '/v1/findings?status=closed', undefined, 400, V],
  ['bad id filter', 'GET', () => '/v1/findings?policy_id=pol_123', undefined, 400, V],
  ['bad boolean', 'GET', () => '/v1/webhooks?enabled=maybe', undefined, 400, V],
  ['bad event filter', 'GET', () => '/v1/webhooks?event=finding.deleted', undefined, 400, V],
  ['cursor with bad characters', 'GET', () => '/v1/policies?cursor=a%2Bb', undefined, 400, V],
  ['cursor not issued here', 'GET', () => '/v1/policies?cursor=bm90LWEtY3Vyc29y', undefined, 400, V],
  ['cursor too long', 'GET', () => `/v1/findings?cursor=${long(600)}`, undefined, 400, V],
  ['repeated limit', 'GET', () => '/v1/policies?limit=1&limit=2', undefined, 400, V],
  // createPolicy
  ['policy: wrong type', 'POST', () => '/v1/policies', { name: 5, severity: 'high' }, 400, V],
  ['policy: unknown field', 'POST', () => '/v1/policies', { ...policy, colour: 'red' }, 400, V],
  ['policy: missing name', 'POST', () => '/v1/policies', { severity: 'high' }, 400, V],
  ['policy: empty name', 'POST', () => '/v1/policies', { ...policy, name: '' }, 400, V],
  ['policy: oversized name', 'POST', () => '/v1/policies', { ...policy, name: long(129) }, 400, V],
  ['policy: oversized description', 'POST', () => '/v1/policies', { ...policy, description: long(4097) }, 400, V],
  ['policy: bad framework', 'POST', () => '/v1/policies', { ...policy, frameworks: [{ framework: 'hipaa', control: '1' }] }, 400, V],
  [
    'policy: too many frameworks',
    'POST',
    () => '/v1/policies',
    { ...policy, frameworks: Array.from({ length: 33 }, () => ({ framework: 'cis', control: '1' })) },
    400,
    V,
  ],
  ['policy: bad rule language', 'POST', () => '/v1/policies', { ...policy, rule: { language: 'cel', source: 'x' } }, 400, V],
  ['policy: enabled as string', 'POST', () => '/v1/policies', { ...policy, enabled: 'yes' }, 400, V],
  ['policy: read-only field', 'POST', () => '/v1/policies', { ...policy, version: 3 }, 400, V],
  ['policy: array body', 'POST', () => '/v1/policies', [policy], 400, V],
  ['policy: bad JSON', 'POST', () => '/v1/policies', '{"name":', 400, 'malformed-json'],
  ['policy: huge body', 'POST', () => '/v1/policies', { ...policy, description: long(1_100_000) }, 413, 'payload-too-large'],
  ['policy: bad Idempotency-Key', 'POST', () => '/v1/policies', policy, 400, V],
  // getPolicy / updatePolicy / deletePolicy
  ['policy id: wrong prefix', 'GET', () => `/v1/policies/${ids.finding}`, undefined, 400, V],
  ['policy id: too short', 'GET', () => '/v1/policies/pol_1', undefined, 400, V],
  ['policy id: uppercase', 'GET', () => `/v1/policies/${ids.policy.toUpperCase()}`, undefined, 400, V],
  ['policy put: unknown field', 'PUT', () => `/v1/policies/${ids.policy}`, { ...policy, id: 'pol_01jbz0r5s6t7v8w9x0y1z2a3b4' }, 400, V],
  ['policy put: bad severity', 'PUT', () => `/v1/policies/${ids.policy}`, { ...policy, severity: 'urgent' }, 400, V],
  ['policy put: bad JSON', 'PUT', () => `/v1/policies/${ids.policy}`, '[', 400, 'malformed-json'],
  ['policy put: stale If-Match', 'PUT', () => `/v1/policies/${ids.policy}`, policy, 412, 'precondition-failed'],
  ['policy delete: bad id', 'DELETE', () => '/v1/policies/pol_!!', undefined, 400, V],
  ['policy delete: in use', 'DELETE', () => `/v1/policies/${ids.policy}`, undefined, 409, 'policy-in-use'],
  // createFinding
  ['finding: bad device id', 'POST', () => '/v1/findings', { ...finding, device_id: 'device-1' }, 400, V],
  ['finding: bad severity', 'POST', () => '/v1/findings', { ...finding, severity: 'HIGH' }, 400, V],
  ['finding: oversized title', 'POST', () => '/v1/findings', { ...finding, title: long(257) }, 400, V],
  ['finding: bad timestamp', 'POST', () => '/v1/findings', { ...finding, first_seen_at: '2026-11-02 09:30' }, 400, V],
  ['finding: timestamp with offset', 'POST', () => '/v1/findings', { ...finding, first_seen_at: '2026-11-02T09:30:00+02:00' }, 400, V],
  ['finding: unknown policy', 'POST', () => '/v1/findings', { ...finding, policy_id: 'pol_01jbz0r5s6t7v8w9x0y1z2a3b4' }, 400, V],
  ['finding: null title', 'POST', () => '/v1/findings', { ...finding, title: null }, 400, V],
  ['finding: nested junk', 'POST', () => '/v1/findings', { ...finding, resolution: { reason: 'fixed' } }, 400, V],
  // updateFinding
  ['finding put: missing status', 'PUT', () => `/v1/findings/${ids.finding}`, { title: 'f', severity: 'low' }, 400, V],
  ['finding put: device_id is fixed', 'PUT', () => `/v1/findings/${ids.finding}`, { ...findingUpdate, device_id: DEVICE_ID }, 400, V],
  [
    'finding put: resolved without resolution',
    'PUT',
    () => `/v1/findings/${ids.finding}`,
    { ...findingUpdate, status: 'resolved' },
    400,
    V,
  ],
  [
    'finding put: reason of the other status',
    'PUT',
    () => `/v1/findings/${ids.finding}`,
    { ...findingUpdate, status: 'suppressed', resolution: { reason: 'fixed' } },
    400,
    V,
  ],
  [
    'finding put: oversized comment',
    'PUT',
    () => `/v1/findings/${ids.finding}`,
    { ...findingUpdate, status: 'resolved', resolution: { reason: 'fixed', comment: long(2049) } },
    400,
    V,
  ],
  [
    'finding put: unknown policy',
    'PUT',
    () => `/v1/findings/${ids.finding}`,
    { ...findingUpdate, policy_id: 'pol_01jbz0r5s6t7v8w9x0y1z2a3b4' },
    400,
    V,
  ],
  ['finding put: unknown id', 'PUT', () => '/v1/findings/fnd_01jbz0r5s6t7v8w9x0y1z2a3b4', findingUpdate, 404, 'not-found'],
  ['finding get: bad id', 'GET', () => '/v1/findings/fnd_0000000000000000000000000u', undefined, 400, V],
  ['finding delete: stale If-Match', 'DELETE', () => `/v1/findings/${ids.finding}`, undefined, 412, 'precondition-failed'],
  // webhooks
  ['webhook: no events', 'POST', () => '/v1/webhooks', { ...webhook, events: [] }, 400, V],
  ['webhook: too many events', 'POST', () => '/v1/webhooks', { ...webhook, events: Array(7).fill('finding.created') }, 400, V],
  ['webhook: url not a URL', 'POST', () => '/v1/webhooks', { ...webhook, url: 'not a url at all' }, 400, V],
  ['webhook: url too long', 'POST', () => '/v1/webhooks', { ...webhook, url: `https://a.example.com/${long(2100)}` }, 400, V],
  ['webhook: secret too short', 'POST', () => '/v1/webhooks', { ...webhook, secret: 'short' }, 400, V],
  ['webhook: secret too long', 'POST', () => '/v1/webhooks', { ...webhook, secret: long(257) }, 400, V],
  ['webhook: has_secret is read-only', 'POST', () => '/v1/webhooks', { ...webhook, has_secret: true }, 400, V],
  ['webhook put: disabled_reason is read-only', 'PUT', () => `/v1/webhooks/${ids.webhook}`, { ...webhook, disabled_reason: null }, 400, V],
  ['webhook put: events as string', 'PUT', () => `/v1/webhooks/${ids.webhook}`, { ...webhook, events: 'finding.created' }, 400, V],
  ['webhook put: wrong content type', 'PUT', () => `/v1/webhooks/${ids.webhook}`, 'url=https://a', 415, 'unsupported-media-type'],
  ['webhook get: bad id', 'GET', () => '/v1/webhooks/whk_', undefined, 400, V],
  ['webhook delete: unknown id', 'DELETE', () => '/v1/webhooks/whk_01jbz0r5s6t7v8w9x0y1z2a3b4', undefined, 404, 'not-found'],
];

describe('malformed requests', () => {
  it.each(cases)('%s', async (label, method, path, body, status, kind) => {
    const before = await snapshot();
    const headers: Record<string, string> = {};
    if (label.includes('If-Match')) headers['If-Match'] = '"stale"';
    if (label.includes('Idempotency-Key')) headers['Idempotency-Key'] = 'has spaces';
    let init: RequestInit & { json?: unknown } = { method, headers };
    if (typeof body === 'string')
      init = {
        ...init,
        body,
        headers: { ...headers, 'Content-Type': label.includes('content type') ? 'application/x-www-form-urlencoded' : 'application/json' },
      };
    else if (body !== undefined) init = { ...init, json: body };
    const response = await t.fetch(path(), init);
    expect(response.status).toBeLessThan(500);
    expect(response.status).toBe(status);
    expect((await readProblem(response)).type).toBe(PROBLEM(kind));
    expect(await snapshot()).toBe(before);
  });
});
