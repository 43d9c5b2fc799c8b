// secmon-msw's stateful mode in Node: the stateful mock's rules over an in-memory store,
// seeded from the examples and reset between tests.
import { setupServer } from 'msw/node';
import { createSecmonClient } from 'secmon-api/src/client';
import { loadDocument } from 'secmon-api/src/document';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSecmonMsw } from '../src/index.ts';

const BASE = 'https://api.secmon.test';
const doc = loadDocument();
const seededIds = (name: string) =>
  (doc.components!.examples![name] as { value: { data: { id: string }[] } }).value.data.map((item) => item.id);
const mock = createSecmonMsw({ baseUrl: BASE, stateful: true });
const server = setupServer(...mock.handlers);
let api: ReturnType<typeof createSecmonClient>;
const DEVICE = 'dev_01jbz1a2b3c4d5e6f7g8h9j0k1';

beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' });
  api = createSecmonClient({ baseUrl: BASE, apiKey: 'any-token', maxRetries: 0 });
});
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(() => server.close());

describe('stateful mode', () => {
  it('starts from the examples, shows a create first in its list, walks cursors and forgets everything on reset', async () => {
    const seed = await api.GET('/v1/findings', { params: { query: { limit: 100 } } });
    expect(seed.data!.data.map((finding) => finding.id)).toEqual(seededIds('FindingList'));
    const created = await api.POST('/v1/findings', { body: { title: 'USB storage allowed', severity: 'medium', device_id: DEVICE } });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('location')).toBe(`/v1/findings/${created.data!.id}`);
    expect(created.data).toMatchObject({ status: 'open', description: '', resolution: null, policy_id: null });
    const ids: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await api.GET('/v1/findings', { params: { query: { limit: 1, ...(cursor ? { cursor } : {}) } } });
      ids.push(...page.data!.data.map((finding) => finding.id));
      cursor = page.data!.next_cursor;
    } while (cursor);
    expect(ids).toEqual([created.data!.id, ...seededIds('FindingList')]);
    mock.reset();
    expect((await api.GET('/v1/findings/{id}', { params: { path: { id: created.data!.id } } })).response.status).toBe(404);
  });

  it('keeps the finding life cycle, derives compliance and refuses to delete a policy in use', async () => {
    const policy = await api.POST('/v1/policies', { body: { name: 'Disk encryption', severity: 'high' } });
    expect(policy.data!.compliance_status).toBe('compliant');
    const id = policy.data!.id;
    const finding = await api.POST('/v1/findings', {
      body: { title: 'Disk not encrypted', severity: 'high', device_id: DEVICE, policy_id: id },
    });
    expect((await api.GET('/v1/policies/{id}', { params: { path: { id } } })).data!.compliance_status).toBe('non_compliant');
    const inUse = await api.DELETE('/v1/policies/{id}', { params: { path: { id } } });
    expect(inUse.response.status).toBe(409);
    expect(inUse.error!.type).toBe('https://secmon.dev/problems/policy-in-use');
    const fid = finding.data!.id;
    const base = { title: 'Disk not encrypted', severity: 'high' as const, policy_id: id };
    const resolved = await api.PUT('/v1/findings/{id}', {
      params: { path: { id: fid } },
      body: { ...base, status: 'resolved', resolution: { reason: 'fixed' } },
    });
    expect(resolved.data).toMatchObject({ status: 'resolved', resolution: { reason: 'fixed', comment: '' } });
    expect(resolved.data!.resolved_at).not.toBeNull();
    const illegal = await api.PUT('/v1/findings/{id}', { params: { path: { id: fid } }, body: { ...base, status: 'in_progress' } });
    expect(illegal.response.status).toBe(409);
    expect(illegal.error!.type).toBe('https://secmon.dev/problems/invalid-transition');
    expect((await api.DELETE('/v1/policies/{id}', { params: { path: { id } } })).response.status).toBe(204);
    expect((await api.GET('/v1/findings/{id}', { params: { path: { id: fid } } })).data!.policy_id).toBeNull();
    const unknown = await api.POST('/v1/findings', { body: { title: 'x', severity: 'low', device_id: DEVICE, policy_id: id } });
    expect(unknown.error!.errors).toEqual([{ pointer: '/body/policy_id', message: `no policy has the id ${id}` }]);
  });

  it('answers 304 to a matching If-None-Match, 412 to a stale If-Match, and PUT replaces every writable field', async () => {
    const created = await api.POST('/v1/policies', {
      body: { name: 'Firewall', severity: 'low', description: 'Host firewall on', enabled: false },
    });
    const id = created.data!.id;
    const etag = created.response.headers.get('etag')!;
    const cached = await api.GET('/v1/policies/{id}', { params: { path: { id }, header: { 'If-None-Match': etag } } });
    expect(cached.response.status).toBe(304);
    const replaced = await api.PUT('/v1/policies/{id}', {
      params: { path: { id }, header: { 'If-Match': etag } },
      body: { name: 'Firewall', severity: 'low' },
    });
    expect(replaced.data).toMatchObject({ description: '', enabled: true, version: 2 });
    const stale = await api.PUT('/v1/policies/{id}', {
      params: { path: { id }, header: { 'If-Match': etag } },
      body: { name: 'x', severity: 'low' },
    });
    expect(stale.response.status).toBe(412);
  });

  it('never returns a secret: has_secret follows create, keep (omitted), replace and remove (null)', async () => {
    const created = await api.POST('/v1/webhooks', {
      body: { url: 'https://hooks.example.com/secmon', events: ['finding.created'], secret: 'a-secret-of-sixteen-chars' },
    });
    expect(created.data!.has_secret).toBe(true);
    expect(JSON.stringify(created.data)).not.toContain('a-secret-of-sixteen-chars');
    const id = created.data!.id;
    const body = { url: 'https://hooks.example.com/secmon', events: ['finding.created' as const] };
    expect((await api.PUT('/v1/webhooks/{id}', { params: { path: { id } }, body })).data!.has_secret).toBe(true);
    expect((await api.PUT('/v1/webhooks/{id}', { params: { path: { id } }, body: { ...body, secret: null } })).data!.has_secret).toBe(
      false,
    );
    const listed = await api.GET('/v1/webhooks', { params: { query: { event: 'finding.created' } } });
    expect(listed.data!.data.map((webhook) => webhook.id)).toContain(id);
  });

  it('replays a create retried with its Idempotency-Key and refuses the key with another body', async () => {
    const send = (name: string) =>
      api.POST('/v1/policies', { body: { name, severity: 'low' }, params: { header: { 'Idempotency-Key': 'retry-1' } } });
    const first = await send('Patch level');
    const retry = await send('Patch level');
    expect(retry.response.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.data).toEqual(first.data);
    const reused = await send('Another name');
    expect(reused.response.status).toBe(409);
    expect(reused.error!.detail).toBe('The Idempotency-Key retry-1 was used with a different request body.');
    const listed = await api.GET('/v1/policies', { params: { query: { limit: 100 } } });
    expect(listed.data!.data.filter((policy) => policy.name === 'Patch level')).toHaveLength(1);
  });

  it('Prefer asks for documented errors only (successes come from the state), as the server mock does', async () => {
    const [id] = seededIds('PolicyList');
    const gone = await fetch(`${BASE}/v1/policies/${id}`, { headers: { authorization: 'Bearer x', prefer: 'code=404' } });
    expect(gone.status).toBe(404);
    const success = await fetch(`${BASE}/v1/policies/${id}`, { headers: { authorization: 'Bearer x', prefer: 'example=compliant' } });
    expect(success.status).toBe(400);
    server.use(mock.scenario('getPolicy', { example: 'compliant' }));
    expect((await api.GET('/v1/policies/{id}', { params: { path: { id: id! } } })).data!.compliance_status).toBe('compliant');
  });
});
