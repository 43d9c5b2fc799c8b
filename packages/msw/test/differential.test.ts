// The stateful MSW handlers and the stateful mock (the reference server) behave alike: fast-check
// generates sequences of requests (creates, some with a reused Idempotency-Key, reads, lists, full
// replacements with fresh and stale ETags, life-cycle moves, deletes), each runs against both from their seed, and every answer's
// status and body must agree once the ids each side minted and the timestamps are set aside.
import fc from 'fast-check';
import { getResponse } from 'msw';
import { loadDocument } from 'secmon-api/src/document';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statefulMockDeps } from '../../../server/stateful-mock/deps.ts';
import { startTestServer, type TestServer } from '../../../test/server/helpers.ts';
import { createSecmonMsw } from '../src/index.ts';

const doc = loadDocument();
const seeded = (name: string) =>
  (doc.components!.examples![name] as { value: { data: { id: string }[] } }).value.data.map((item) => item.id);
const SEED = { policies: seeded('PolicyList'), findings: seeded('FindingList'), webhooks: seeded('WebhookList') };
const DEVICE = 'dev_01jbz1a2b3c4d5e6f7g8h9j0k1';
const URL_OF_HOOK = 'https://hooks.example.com/secmon';

type Collection = keyof typeof SEED;
type Step =
  | { op: 'create-policy'; severity: string; enabled: boolean; key: string | null }
  | { op: 'create-finding'; policy: number | null; severity: string; key: string | null }
  | { op: 'create-webhook'; secret: boolean }
  | { op: 'read' | 'delete'; collection: Collection; item: number; etag: 'none' | 'fresh' | 'stale' }
  | { op: 'replace-policy'; item: number; etag: 'none' | 'fresh' | 'stale' }
  | { op: 'move-finding'; item: number; status: 'open' | 'in_progress' | 'resolved' | 'suppressed'; policy: number | null }
  | { op: 'replace-webhook'; item: number; secret: 'keep' | 'remove' | 'replace' }
  | { op: 'list'; collection: Collection; filter: 'none' | 'severity' | 'status' | 'enabled' }
  | { op: 'invalid'; request: number };

const index = fc.nat({ max: 20 });
const etag = fc.constantFrom('none' as const, 'fresh' as const, 'stale' as const);
const severity = fc.constantFrom('info', 'low', 'medium', 'high', 'critical');
const collection = fc.constantFrom<Collection>('policies', 'findings', 'webhooks');
// Few keys, so sequences retry a create (a replay) and reuse a key with another body (a 409).
const key = fc.option(fc.constantFrom('key-1', 'key-2'), { nil: null });
// Requests the document refuses, each with several invalid parts at once.
const INVALID: { path: string; method: string; body?: unknown }[] = [
  { path: '/v1/findings', method: 'POST', body: { title: '', severity: 'urgent', device_id: 'nope', colour: 'red' } },
  { path: '/v1/policies?limit=0&sort=name', method: 'GET' },
  {
    path: '/v1/policies/pol_01jbz1a2b3c4d5e6f7g8h9j0k1',
    method: 'PUT',
    body: { name: 'x'.repeat(200), severity: 'low', frameworks: [{}] },
  },
  { path: '/v1/webhooks', method: 'POST', body: { url: 'not a url', events: [] } },
  { path: '/v1/findings/fnd_bad', method: 'GET' },
];
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('invalid' as const), request: fc.nat({ max: INVALID.length - 1 }) }),
  fc.record({ op: fc.constant('create-policy' as const), severity, enabled: fc.boolean(), key }),
  fc.record({ op: fc.constant('create-finding' as const), policy: fc.option(index, { nil: null }), severity, key }),
  fc.record({ op: fc.constant('create-webhook' as const), secret: fc.boolean() }),
  fc.record({ op: fc.constantFrom('read' as const, 'delete' as const), collection, item: index, etag }),
  fc.record({ op: fc.constant('replace-policy' as const), item: index, etag }),
  fc.record({
    op: fc.constant('move-finding' as const),
    item: index,
    status: fc.constantFrom('open' as const, 'in_progress' as const, 'resolved' as const, 'suppressed' as const),
    policy: fc.option(index, { nil: null }),
  }),
  fc.record({
    op: fc.constant('replace-webhook' as const),
    item: index,
    secret: fc.constantFrom('keep' as const, 'remove' as const, 'replace' as const),
  }),
  fc.record({
    op: fc.constant('list' as const),
    collection,
    filter: fc.constantFrom('none' as const, 'severity' as const, 'status' as const, 'enabled' as const),
  }),
);

interface Target {
  send(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  reset(): Promise<void>;
}

/** Runs the steps on one target; returns each answer's status and body with its own ids numbered. */
async function run(target: Target, steps: Step[]): Promise<{ status: number; body: unknown }[]> {
  const ids = { policies: [...SEED.policies], findings: [...SEED.findings], webhooks: [...SEED.webhooks] };
  const created: string[] = [];
  const pick = (list: Collection, item: number) => ids[list][item % ids[list].length]!;
  const answers: { status: number; body: unknown }[] = [];
  const ifMatch = async (path: string, mode: 'none' | 'fresh' | 'stale', header: string): Promise<Record<string, string>> => {
    if (mode === 'none') return {};
    if (mode === 'stale') return { [header]: '"stale"' };
    return { [header]: (await target.send(path, {})).headers.get('etag') ?? '"none"' };
  };
  const remember = (list: Collection, response: Response, body: { id?: string }) => {
    if (response.status !== 201 || !body.id || created.includes(body.id)) return;
    ids[list].push(body.id);
    created.push(body.id);
  };
  for (const s of steps) {
    let response: Response;
    let list: Collection | undefined;
    if (s.op === 'create-policy') {
      list = 'policies';
      response = await target.send('/v1/policies', {
        method: 'POST',
        body: { name: 'Generated policy', severity: s.severity, enabled: s.enabled },
        headers: s.key === null ? {} : { 'idempotency-key': s.key },
      });
    } else if (s.op === 'create-finding') {
      list = 'findings';
      const policy = s.policy === null ? {} : { policy_id: pick('policies', s.policy) };
      response = await target.send('/v1/findings', {
        method: 'POST',
        body: { title: 'Generated finding', severity: s.severity, device_id: DEVICE, ...policy },
        headers: s.key === null ? {} : { 'idempotency-key': s.key },
      });
    } else if (s.op === 'create-webhook') {
      list = 'webhooks';
      const secret = s.secret ? { secret: 'a-generated-secret-value' } : {};
      response = await target.send('/v1/webhooks', { method: 'POST', body: { url: URL_OF_HOOK, events: ['finding.created'], ...secret } });
    } else if (s.op === 'read' || s.op === 'delete') {
      const path = `/v1/${s.collection}/${pick(s.collection, s.item)}`;
      const header = s.op === 'read' ? 'if-none-match' : 'if-match';
      response = await target.send(path, { method: s.op === 'read' ? 'GET' : 'DELETE', headers: await ifMatch(path, s.etag, header) });
    } else if (s.op === 'replace-policy') {
      const path = `/v1/policies/${pick('policies', s.item)}`;
      response = await target.send(path, {
        method: 'PUT',
        body: { name: 'Replaced', severity: 'low' },
        headers: await ifMatch(path, s.etag, 'if-match'),
      });
    } else if (s.op === 'move-finding') {
      const closed =
        s.status === 'resolved'
          ? { resolution: { reason: 'fixed' } }
          : s.status === 'suppressed'
            ? { resolution: { reason: 'wont_fix' } }
            : {};
      const policy = s.policy === null ? {} : { policy_id: pick('policies', s.policy) };
      const body = { title: 'Moved', severity: 'high', status: s.status, ...closed, ...policy };
      response = await target.send(`/v1/findings/${pick('findings', s.item)}`, { method: 'PUT', body });
    } else if (s.op === 'replace-webhook') {
      const secret = s.secret === 'keep' ? {} : { secret: s.secret === 'remove' ? null : 'another-generated-secret' };
      response = await target.send(`/v1/webhooks/${pick('webhooks', s.item)}`, {
        method: 'PUT',
        body: { url: URL_OF_HOOK, events: ['finding.created'], ...secret },
      });
    } else if (s.op === 'invalid') {
      const { path, method, body } = INVALID[s.request]!;
      response = await target.send(path, { method, body });
    } else {
      const listing = s as Extract<Step, { op: 'list' }>;
      const filter = {
        none: '',
        severity: '&severity=high',
        status: listing.collection === 'findings' ? '&status=open' : '',
        enabled: listing.collection === 'findings' ? '' : '&enabled=true',
      }[listing.filter];
      response = await target.send(`/v1/${listing.collection}?limit=100${filter}`, {});
    }
    const text = await response.text();
    const body = text === '' ? undefined : JSON.parse(text);
    if (list) remember(list, response, body ?? {});
    answers.push({ status: response.status, body: normalise(body, created) });
  }
  return answers;
}

/** Ids this target minted become their creation order, times and cursors placeholders, list items sorted. */
function normalise(body: unknown, created: string[]): unknown {
  let text = JSON.stringify(body ?? null);
  created.forEach((id, order) => (text = text.replaceAll(id, `<new ${order}>`)));
  text = text.replace(/"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z"/g, '"<time>"');
  const value = JSON.parse(text);
  if (value && Array.isArray(value.data)) {
    value.data.sort((a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    if (value.next_cursor !== null) value.next_cursor = '<cursor>';
  }
  return value;
}

let reference: TestServer;
const mock = createSecmonMsw({ stateful: true });
const targets: Record<'msw' | 'server', Target> = {
  msw: {
    send: async (path, { method = 'GET', body, headers = {} }) => {
      const request = new Request(`https://api.secmon.test${path}`, {
        method,
        headers: { authorization: 'Bearer any', ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await getResponse(mock.handlers, request))!;
    },
    reset: async () => mock.reset(),
  },
  server: {
    send: (path, { method = 'GET', body, headers = {} }) =>
      reference.fetch(path, {
        method,
        headers: { authorization: 'Bearer any', ...headers },
        ...(body === undefined ? {} : { json: body }),
      }),
    reset: async () => void (await fetch(`${reference.url}/_mock/reset`, { method: 'POST' })),
  },
};

beforeAll(async () => {
  reference = await startTestServer({}, statefulMockDeps());
});
afterAll(() => reference?.close());

describe('stateful MSW handlers against the stateful mock (the reference server assembled by server/stateful-mock/)', () => {
  it('answer the same generated request sequences with the same statuses and bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        await Promise.all(Object.values(targets).map((target) => target.reset()));
        const [fromMsw, fromServer] = [await run(targets.msw, steps), await run(targets.server, steps)];
        expect(fromMsw).toEqual(fromServer);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
