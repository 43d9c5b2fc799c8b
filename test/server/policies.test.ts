// /v1/policies through HTTP: every operation's success path and documented errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_ID, PROBLEM, readProblem, schemaErrors, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const full = {
  name: 'SSH root login disabled',
  description: 'Root may not log in over SSH.',
  severity: 'high' as const,
  enabled: true,
  frameworks: [{ framework: 'cis' as const, control: '5.2.10' }],
  rule: { language: 'rego' as const, source: 'package ssh\ndeny { input.permit_root_login }' },
};

async function createPolicy(body: object = { name: 'p', severity: 'low' }) {
  const response = await t.fetch('/v1/policies', { method: 'POST', json: body });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; version: number; compliance_status: string };
}

describe('createPolicy', () => {
  it('201 with Location, ETag and the full resource at version 1, compliant', async () => {
    const { data, response } = await t.api.POST('/v1/policies', { body: full });
    expect(response.status).toBe(201);
    expect(schemaErrors('Policy', data)).toBe('');
    expect(data).toMatchObject({ ...full, version: 1, compliance_status: 'compliant' });
    expect(response.headers.get('location')).toBe(`/v1/policies/${data!.id}`);
    expect(response.headers.get('etag')).toMatch(/^"[!#-~]+"$/);
  });

  it('applies the defaults of omitted fields', async () => {
    const { data } = await t.api.POST('/v1/policies', { body: { name: 'minimal', severity: 'info' } });
    expect(data).toMatchObject({ description: '', enabled: true, frameworks: [], rule: null });
  });

  it('403 for a read-only key', async () => {
    const { error, response } = await t.reader.POST('/v1/policies', { body: full });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(schemaErrors('Problem', error)).toBe('');
    expect(error).toMatchObject({ type: PROBLEM('forbidden'), status: 403, instance: '/v1/policies' });
  });

  it('Idempotency-Key: same body replays the first response, another body is 409', async () => {
    const headers = { 'Idempotency-Key': 'policy-key-1' };
    const first = await t.fetch('/v1/policies', { method: 'POST', json: full, headers });
    const again = await t.fetch('/v1/policies', { method: 'POST', json: { ...full }, headers });
    expect(again.status).toBe(201);
    expect(await again.text()).toBe(await first.text());
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const list = await (await t.fetch('/v1/policies?limit=100')).json();
    expect(list.data.filter((policy: { name: string }) => policy.name === full.name)).toHaveLength(2);

    const conflict = await t.fetch('/v1/policies', { method: 'POST', json: { ...full, name: 'other' }, headers });
    expect(conflict.status).toBe(409);
    expect((await readProblem(conflict)).type).toBe(PROBLEM('idempotency-key-reused'));
  });

  it('Idempotency-Key records expire after 24 hours', async () => {
    let clock = Date.parse('2026-11-02T09:30:00Z');
    const timed = await startTestServer({}, { now: () => new Date(clock) });
    try {
      const headers = { 'Idempotency-Key': 'day-old' };
      const first = await timed.fetch('/v1/policies', { method: 'POST', json: { name: 'a', severity: 'low' }, headers });
      clock += 23 * 3600_000;
      expect((await timed.fetch('/v1/policies', { method: 'POST', json: { name: 'b', severity: 'low' }, headers })).status).toBe(409);
      clock += 2 * 3600_000;
      const later = await timed.fetch('/v1/policies', { method: 'POST', json: { name: 'b', severity: 'low' }, headers });
      expect(later.status).toBe(201);
      expect((await later.json()).id).not.toBe((await first.json()).id);
    } finally {
      await timed.close();
    }
  });

  it('Idempotency-Key is scoped to the API key', async () => {
    const headers = { 'Idempotency-Key': 'shared-key' };
    const first = await t.fetch('/v1/policies', { method: 'POST', json: { name: 'a', severity: 'low' }, headers });
    const other = await t.fetch('/v1/policies', {
      method: 'POST',
      json: { name: 'a', severity: 'low' },
      headers: { ...headers, Authorization: 'Bearer test-writeonly-1c4e7a' },
    });
    expect(other.status).toBe(201);
    expect((await other.json()).id).not.toBe((await first.json()).id);
  });
});

describe('getPolicy', () => {
  it('200 with ETag; If-None-Match gives 304 without a body', async () => {
    const policy = await createPolicy();
    const { data, response } = await t.reader.GET('/v1/policies/{id}', { params: { path: { id: policy.id } } });
    expect(data).toEqual(policy);
    const etag = response.headers.get('etag')!;
    const cached = await t.fetch(`/v1/policies/${policy.id}`, { headers: { 'If-None-Match': etag } });
    expect(cached.status).toBe(304);
    expect(cached.headers.get('etag')).toBe(etag);
    expect(await cached.text()).toBe('');
    const stale = await t.fetch(`/v1/policies/${policy.id}`, { headers: { 'If-None-Match': '"stale"' } });
    expect(stale.status).toBe(200);
  });

  it('404 for an unknown id, 400 for a malformed one', async () => {
    const missing = await t.fetch('/v1/policies/pol_01jbz0r5s6t7v8w9x0y1z2a3b4');
    expect(missing.status).toBe(404);
    expect(await readProblem(missing)).toMatchObject({
      type: PROBLEM('not-found'),
      instance: '/v1/policies/pol_01jbz0r5s6t7v8w9x0y1z2a3b4',
    });
    const malformed = await t.fetch('/v1/policies/fnd_01jbz0r5s6t7v8w9x0y1z2a3b4');
    expect(malformed.status).toBe(400);
    expect((await readProblem(malformed)).errors?.[0]?.pointer).toBe('/path/id');
  });
});

describe('updatePolicy', () => {
  it('replaces every writable field, omitted ones take defaults, version increments, new ETag', async () => {
    const { data: created, response: createdResponse } = await t.api.POST('/v1/policies', { body: full });
    const { data, response } = await t.api.PUT('/v1/policies/{id}', {
      params: { path: { id: created!.id } },
      body: { name: 'renamed', severity: 'critical' },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      name: 'renamed',
      severity: 'critical',
      description: '',
      enabled: true,
      frameworks: [],
      rule: null,
      version: 2,
    });
    expect(data!.created_at).toBe(created!.created_at);
    expect(response.headers.get('etag')).not.toBe(createdResponse.headers.get('etag'));
  });

  it('If-Match: the current ETag succeeds, a stale one is 412 and changes nothing', async () => {
    const created = await t.fetch('/v1/policies', { method: 'POST', json: full });
    const { id } = await created.json();
    const etag = created.headers.get('etag')!;
    const ok = await t.fetch(`/v1/policies/${id}`, { method: 'PUT', json: { ...full, name: 'v2' }, headers: { 'If-Match': etag } });
    expect(ok.status).toBe(200);
    const stale = await t.fetch(`/v1/policies/${id}`, { method: 'PUT', json: { ...full, name: 'v3' }, headers: { 'If-Match': etag } });
    expect(stale.status).toBe(412);
    expect((await readProblem(stale)).type).toBe(PROBLEM('precondition-failed'));
    const current = await (await t.fetch(`/v1/policies/${id}`)).json();
    expect(current).toMatchObject({ name: 'v2', version: 2 });
  });

  it('404 for an unknown id', async () => {
    const { response } = await t.api.PUT('/v1/policies/{id}', { params: { path: { id: 'pol_01jbz0r5s6t7v8w9x0y1z2a3b4' } }, body: full });
    expect(response.status).toBe(404);
  });
});

describe('listPolicies', () => {
  it('walks every page newest first with no duplicates, filters combine and bind the cursor', async () => {
    const fresh = await startTestServer();
    try {
      const ids: string[] = [];
      for (let index = 0; index < 7; index++) {
        const response = await fresh.fetch('/v1/policies', {
          method: 'POST',
          json: { name: `p${index}`, severity: index % 2 ? 'high' : 'low', enabled: index !== 3 },
        });
        ids.push((await response.json()).id);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const { data, response } = await fresh.reader.GET('/v1/policies', {
          params: { query: { limit: 3, ...(cursor ? { cursor } : {}) } },
        });
        expect(response.status).toBe(200);
        expect(schemaErrors('PolicyList', data)).toBe('');
        seen.push(...data!.data.map((policy) => policy.id));
        cursor = data!.next_cursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual([...ids].reverse());

      const high = await fresh.reader.GET('/v1/policies', { params: { query: { severity: 'high', limit: 1 } } });
      expect(high.data!.data.map((policy) => policy.severity)).toEqual(['high']);
      const disabled = await fresh.reader.GET('/v1/policies', { params: { query: { enabled: false } } });
      expect(disabled.data!.data.map((policy) => policy.id)).toEqual([ids[3]]);

      const wrongFilters = await fresh.fetch(`/v1/policies?severity=low&cursor=${high.data!.next_cursor}`);
      expect(wrongFilters.status).toBe(400);
      expect((await readProblem(wrongFilters)).errors?.[0]?.pointer).toBe('/query/cursor');
    } finally {
      await fresh.close();
    }
  });

  it('400 for limit out of range and unknown query parameters', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'colour=red', 'severity=urgent', 'cursor=***']) {
      const response = await t.fetch(`/v1/policies?${query}`);
      expect(response.status, query).toBe(400);
      expect((await readProblem(response)).type).toBe(PROBLEM('validation-error'));
    }
  });
});

describe('deletePolicy', () => {
  it('204, then 404', async () => {
    const policy = await createPolicy();
    const { response } = await t.api.DELETE('/v1/policies/{id}', { params: { path: { id: policy.id } } });
    expect(response.status).toBe(204);
    expect((await t.fetch(`/v1/policies/${policy.id}`)).status).toBe(404);
    expect((await t.fetch(`/v1/policies/${policy.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('409 policy-in-use while an open or in-progress finding references it; closed findings keep policy_id null', async () => {
    const policy = await createPolicy();
    const openFinding = await (
      await t.fetch('/v1/findings', { method: 'POST', json: { title: 'a', severity: 'low', device_id: DEVICE_ID, policy_id: policy.id } })
    ).json();
    const closed = await (
      await t.fetch('/v1/findings', { method: 'POST', json: { title: 'b', severity: 'low', device_id: DEVICE_ID, policy_id: policy.id } })
    ).json();
    await t.fetch(`/v1/findings/${closed.id}`, {
      method: 'PUT',
      json: { title: 'b', severity: 'low', status: 'resolved', resolution: { reason: 'fixed' }, policy_id: policy.id },
    });

    const refused = await t.fetch(`/v1/policies/${policy.id}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect((await readProblem(refused)).type).toBe(PROBLEM('policy-in-use'));
    expect((await t.fetch(`/v1/policies/${policy.id}`)).status).toBe(200);

    await t.fetch(`/v1/findings/${openFinding.id}`, {
      method: 'PUT',
      json: { title: 'a', severity: 'low', status: 'in_progress', policy_id: policy.id },
    });
    expect((await t.fetch(`/v1/policies/${policy.id}`, { method: 'DELETE' })).status).toBe(409);
    await t.fetch(`/v1/findings/${openFinding.id}`, {
      method: 'PUT',
      json: { title: 'a', severity: 'low', status: 'suppressed', resolution: { reason: 'wont_fix' }, policy_id: policy.id },
    });

    expect((await t.fetch(`/v1/policies/${policy.id}`, { method: 'DELETE' })).status).toBe(204);
    const kept = await (await t.fetch(`/v1/findings/${closed.id}`)).json();
    expect(kept).toMatchObject({ status: 'resolved', policy_id: null });
  });

  it('honours If-Match', async () => {
    const created = await t.fetch('/v1/policies', { method: 'POST', json: { name: 'x', severity: 'low' } });
    const { id } = await created.json();
    const stale = await t.fetch(`/v1/policies/${id}`, { method: 'DELETE', headers: { 'If-Match': '"nope"' } });
    expect(stale.status).toBe(412);
    const ok = await t.fetch(`/v1/policies/${id}`, { method: 'DELETE', headers: { 'If-Match': created.headers.get('etag')! } });
    expect(ok.status).toBe(204);
  });
});

describe('compliance_status and version', () => {
  it('non_compliant while an open or in-progress finding references it; back to compliant when closed or deleted', async () => {
    const policy = await createPolicy();
    const status = async () => (await (await t.fetch(`/v1/policies/${policy.id}`)).json()).compliance_status;
    expect(await status()).toBe('compliant');
    const finding = await (
      await t.fetch('/v1/findings', { method: 'POST', json: { title: 'a', severity: 'low', device_id: DEVICE_ID, policy_id: policy.id } })
    ).json();
    expect(await status()).toBe('non_compliant');
    await t.fetch(`/v1/findings/${finding.id}`, {
      method: 'PUT',
      json: { title: 'a', severity: 'low', status: 'resolved', resolution: { reason: 'fixed' }, policy_id: policy.id },
    });
    expect(await status()).toBe('compliant');
    await t.fetch(`/v1/findings/${finding.id}`, {
      method: 'PUT',
      json: { title: 'a', severity: 'low', status: 'open', policy_id: policy.id },
    });
    expect(await status()).toBe('non_compliant');
    await t.fetch(`/v1/findings/${finding.id}`, { method: 'DELETE' });
    expect(await status()).toBe('compliant');
    const after = await (await t.fetch(`/v1/policies/${policy.id}`)).json();
    expect(after.version).toBe(1);
  });
});
