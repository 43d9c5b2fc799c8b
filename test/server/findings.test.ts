// /v1/findings through HTTP: the life cycle, resolved_at, compliance, the events each change
// queues in the outbox, and every documented error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_ID, PROBLEM, readProblem, schemaErrors, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function post(path: string, json: object) {
  const response = await t.fetch(path, { method: 'POST', json });
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json();
}

const newPolicy = () => post('/v1/policies', { name: 'policy', severity: 'high' }) as Promise<{ id: string }>;
const newFinding = (extra: object = {}) =>
  post('/v1/findings', { title: 'SSH root login enabled', severity: 'high', device_id: DEVICE_ID, ...extra }) as Promise<{
    id: string;
    policy_id: string | null;
  }>;
const put = (id: string, json: object, headers: Record<string, string> = {}) =>
  t.fetch(`/v1/findings/${id}`, { method: 'PUT', json, headers });

/** Bodies the outbox queued since the last call (the dispatcher may deliver them meanwhile). */
let eventsSeen = 0;
async function queuedEvents(): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const events = await t.server.app.store.outbox.listEvents();
  const fresh = events.slice(eventsSeen);
  eventsSeen = events.length;
  return fresh as { event: string; data: Record<string, unknown> }[];
}

describe('createFinding', () => {
  it('201: open, defaults, Location and ETag, valid Finding', async () => {
    const { data, response } = await t.api.POST('/v1/findings', {
      body: { title: 'Disk not encrypted', severity: 'medium', device_id: DEVICE_ID },
    });
    expect(response.status).toBe(201);
    expect(schemaErrors('Finding', data)).toBe('');
    expect(data).toMatchObject({ status: 'open', resolution: null, resolved_at: null, policy_id: null, description: '' });
    expect(data!.first_seen_at).toBe(data!.created_at);
    expect(response.headers.get('location')).toBe(`/v1/findings/${data!.id}`);
    expect(response.headers.get('etag')).toMatch(/^"[!#-~]+"$/);
    expect((await t.fetch(`/v1/findings/${data!.id}`)).headers.get('etag')).toBe(response.headers.get('etag'));
  });

  it('keeps given first/last seen times; refuses last_seen_at before first_seen_at', async () => {
    const finding = await newFinding({ first_seen_at: '2026-01-01T00:00:00Z', last_seen_at: '2026-01-02T00:00:00Z' });
    expect(finding).toMatchObject({ first_seen_at: '2026-01-01T00:00:00Z', last_seen_at: '2026-01-02T00:00:00Z' });
    const response = await t.fetch('/v1/findings', {
      method: 'POST',
      json: {
        title: 't',
        severity: 'low',
        device_id: DEVICE_ID,
        first_seen_at: '2026-01-02T00:00:00Z',
        last_seen_at: '2026-01-01T00:00:00Z',
      },
    });
    expect(response.status).toBe(400);
    expect((await readProblem(response)).errors).toEqual([
      { pointer: '/body/last_seen_at', message: 'must not be earlier than first_seen_at' },
    ]);
  });

  it('400 when policy_id names no policy', async () => {
    const response = await t.fetch('/v1/findings', {
      method: 'POST',
      json: { title: 't', severity: 'low', device_id: DEVICE_ID, policy_id: 'pol_01jbz0r5s6t7v8w9x0y1z2a3b4' },
    });
    expect(response.status).toBe(400);
    expect((await readProblem(response)).errors?.[0]?.pointer).toBe('/body/policy_id');
  });

  it('refuses a status on create (status is always open)', async () => {
    const response = await t.fetch('/v1/findings', {
      method: 'POST',
      json: { title: 't', severity: 'low', device_id: DEVICE_ID, status: 'resolved' },
    });
    expect(response.status).toBe(400);
    expect((await readProblem(response)).errors?.[0]).toEqual({ pointer: '/body/status', message: 'is not a known field' });
  });
});

describe('updateFinding', () => {
  it('400 without status names only the missing status (the status conditions apply only when it is present)', async () => {
    const finding = await newFinding();
    const response = await put(finding.id, { title: 'SSH root login enabled', severity: 'high' });
    expect(response.status).toBe(400);
    expect((await readProblem(response)).errors).toEqual([{ pointer: '/body/status', message: expect.stringContaining('status') }]);
  });

  it('follows the life cycle; resolved_at set on resolve and cleared on reopen', async () => {
    const finding = await newFinding();
    const base = { title: 'SSH root login enabled', severity: 'high' };
    const started = await put(finding.id, { ...base, status: 'in_progress' });
    expect(started.status).toBe(200);
    expect(await started.json()).toMatchObject({ status: 'in_progress', resolved_at: null });

    const resolved = await put(finding.id, { ...base, status: 'resolved', resolution: { reason: 'fixed', comment: 'patched' } });
    const body = await resolved.json();
    expect(body).toMatchObject({ status: 'resolved', resolution: { reason: 'fixed', comment: 'patched' } });
    expect(Date.parse(body.resolved_at)).toBeGreaterThan(0);

    const illegal = await put(finding.id, { ...base, status: 'suppressed', resolution: { reason: 'wont_fix' } });
    expect(illegal.status).toBe(409);
    expect((await readProblem(illegal)).type).toBe(PROBLEM('invalid-transition'));
    expect((await put(finding.id, { ...base, status: 'in_progress' })).status).toBe(409);

    const reopened = await put(finding.id, { ...base, status: 'open' });
    expect(await reopened.json()).toMatchObject({ status: 'open', resolution: null, resolved_at: null });
  });

  it('resolution rules: required when closing, reason must match the status, absent when open', async () => {
    const finding = await newFinding();
    const base = { title: 't', severity: 'low' };
    for (const body of [
      { ...base, status: 'resolved' },
      { ...base, status: 'resolved', resolution: { reason: 'wont_fix' } },
      { ...base, status: 'suppressed', resolution: { reason: 'fixed' } },
      { ...base, status: 'open', resolution: { reason: 'fixed' } },
    ]) {
      const response = await put(finding.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await readProblem(response)).type).toBe(PROBLEM('validation-error'));
    }
    expect((await (await t.fetch(`/v1/findings/${finding.id}`)).json()).status).toBe('open');
  });

  it('PUT replaces: omitted description and policy_id become their defaults', async () => {
    const policy = await newPolicy();
    const finding = await newFinding({ description: 'details', policy_id: policy.id });
    const response = await put(finding.id, { title: 'new title', severity: 'low', status: 'open' });
    expect(await response.json()).toMatchObject({ title: 'new title', description: '', policy_id: null, device_id: DEVICE_ID });
  });

  it('If-Match 412, unknown id 404, unknown policy 400', async () => {
    const created = await t.fetch('/v1/findings', { method: 'POST', json: { title: 't', severity: 'low', device_id: DEVICE_ID } });
    const { id } = await created.json();
    const stale = await put(id, { title: 't', severity: 'low', status: 'open' }, { 'If-Match': '"stale"' });
    expect(stale.status).toBe(412);
    const fresh = await put(id, { title: 't2', severity: 'low', status: 'open' }, { 'If-Match': created.headers.get('etag')! });
    expect(fresh.status).toBe(200);
    expect((await put('fnd_01jbz0r5s6t7v8w9x0y1z2a3b4', { title: 't', severity: 'low', status: 'open' })).status).toBe(404);
    const unknownPolicy = await put(id, { title: 't', severity: 'low', status: 'open', policy_id: 'pol_01jbz0r5s6t7v8w9x0y1z2a3b4' });
    expect(unknownPolicy.status).toBe(400);
    expect((await (await t.fetch(`/v1/findings/${id}`)).json()).title).toBe('t2');
  });
});

describe('getFinding and deleteFinding', () => {
  it('get 200/304/404, delete 204/412/404', async () => {
    const created = await t.fetch('/v1/findings', { method: 'POST', json: { title: 't', severity: 'low', device_id: DEVICE_ID } });
    const finding = await created.json();
    const etag = created.headers.get('etag')!;
    const { data } = await t.reader.GET('/v1/findings/{id}', { params: { path: { id: finding.id } } });
    expect(data).toEqual(finding);
    expect((await t.fetch(`/v1/findings/${finding.id}`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    expect((await t.fetch(`/v1/findings/${finding.id}`, { method: 'DELETE', headers: { 'If-Match': '"x"' } })).status).toBe(412);
    const { response } = await t.api.DELETE('/v1/findings/{id}', { params: { path: { id: finding.id } }, headers: { 'If-Match': etag } });
    expect(response.status).toBe(204);
    expect((await t.fetch(`/v1/findings/${finding.id}`)).status).toBe(404);
    expect((await t.fetch(`/v1/findings/${finding.id}`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('listFindings', () => {
  it('filters by status, severity, device_id and policy_id', async () => {
    const policy = await newPolicy();
    const other = 'dev_01jbz2m4n6p8q0r2s4t6v8w0x3';
    const a = await newFinding({ policy_id: policy.id, severity: 'critical' });
    const b = await newFinding({ device_id: other, severity: 'critical' });
    await put(b.id, { title: 't', severity: 'critical', status: 'in_progress' });
    const ids = async (query: string) =>
      (await (await t.fetch(`/v1/findings?limit=100&${query}`)).json()).data.map((f: { id: string }) => f.id);
    expect(await ids(`policy_id=${policy.id}`)).toEqual([a.id]);
    expect(await ids(`device_id=${other}`)).toEqual([b.id]);
    expect(await ids('status=in_progress&severity=critical')).toEqual([b.id]);
    expect(await ids(`status=in_progress&device_id=${DEVICE_ID}&severity=critical`)).toEqual([]);
    const { data } = await t.reader.GET('/v1/findings', { params: { query: { severity: 'critical' } } });
    expect(schemaErrors('FindingList', data)).toBe('');
    expect(data!.data.map((finding) => finding.id)).toEqual([b.id, a.id]);
  });
});

describe('events queued with each change', () => {
  it('finding.created, compliance.changed and finding.resolved, in the same transaction as the change', async () => {
    const hook = await t.fetch('/v1/webhooks', {
      method: 'POST',
      json: { url: 'http://127.0.0.1:9/hook', events: ['finding.created', 'finding.resolved', 'compliance.changed'] },
    });
    expect(hook.status).toBe(201);
    await queuedEvents();
    const policy = await newPolicy();
    const finding = await newFinding({ policy_id: policy.id });
    const created = await queuedEvents();
    expect(created.map((event) => event.event)).toEqual(['finding.created', 'compliance.changed']);
    expect(created[0]!.data).toMatchObject({ finding_id: finding.id, policy_id: policy.id, device_id: DEVICE_ID });
    expect(created[1]!.data).toMatchObject({
      policy_id: policy.id,
      previous_status: 'compliant',
      current_status: 'non_compliant',
      finding_id: finding.id,
    });

    await put(finding.id, { title: 't', severity: 'high', status: 'resolved', resolution: { reason: 'duplicate' }, policy_id: policy.id });
    const resolved = await queuedEvents();
    expect(resolved.map((event) => event.event)).toEqual(['finding.resolved', 'compliance.changed']);
    expect(resolved[0]!.data).toMatchObject({ finding_id: finding.id, resolution_reason: 'duplicate' });

    await put(finding.id, { title: 't', severity: 'high', status: 'open', policy_id: policy.id });
    expect((await queuedEvents()).map((event) => event.data.current_status)).toEqual(['non_compliant']);
    await t.fetch(`/v1/findings/${finding.id}`, { method: 'DELETE' });
    expect((await queuedEvents()).map((event) => [event.event, event.data.finding_id])).toEqual([['compliance.changed', null]]);

    const refused = await t.fetch('/v1/findings', {
      method: 'POST',
      json: { title: 't', severity: 'low', device_id: DEVICE_ID, policy_id: 'pol_01jbz0r5s6t7v8w9x0y1z2a3b4' },
    });
    expect(refused.status).toBe(400);
    const illegal = await newFinding();
    await queuedEvents();
    await put(illegal.id, { title: 't', severity: 'high', status: 'suppressed', resolution: { reason: 'wont_fix' } });
    expect((await put(illegal.id, { title: 't', severity: 'high', status: 'resolved', resolution: { reason: 'fixed' } })).status).toBe(409);
    expect(await queuedEvents()).toEqual([]);
  });
});
