// /v1/webhooks through HTTP: the write-only secret, has_secret, PUT semantics, filters, the URL
// policy seam and every documented error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM, querySql, readProblem, schemaErrors, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const SECRET = 'whsec_test_7c1e9a2b4d6f8e0a';

async function createWebhook(body: object) {
  const response = await t.fetch('/v1/webhooks', { method: 'POST', json: body });
  expect(response.status, await response.clone().text()).toBe(201);
  return { body: await response.json(), etag: response.headers.get('etag')! };
}

describe('createWebhook', () => {
  it('201: the secret is stored, never returned; has_secret tells', async () => {
    const { data, response } = await t.api.POST('/v1/webhooks', {
      body: {
        url: 'https://receiver.example.com/hooks',
        events: ['finding.created', 'compliance.changed'],
        secret: SECRET,
        description: 'SOC',
      },
    });
    expect(response.status).toBe(201);
    expect(schemaErrors('Webhook', data)).toBe('');
    expect(data).toMatchObject({ has_secret: true, enabled: true, disabled_reason: null, last_delivery: null, description: 'SOC' });
    expect(JSON.stringify(data)).not.toContain(SECRET);
    expect(response.headers.get('location')).toBe(`/v1/webhooks/${data!.id}`);
    const unsigned = await createWebhook({ url: 'http://localhost:8080/hook', events: ['scan.completed'] });
    expect(unsigned.body).toMatchObject({ has_secret: false, description: '', enabled: true });
  });

  it('400 for bad events, short secrets, bad URLs', async () => {
    for (const body of [
      { url: 'https://a.example.com/h', events: [] },
      { url: 'https://a.example.com/h', events: ['finding.created', 'finding.created'] },
      { url: 'https://a.example.com/h', events: ['finding.deleted'] },
      { url: 'https://a.example.com/h', events: ['scan.completed'], secret: 'short' },
      { url: 'ftp://a.example.com/h', events: ['scan.completed'] },
      { url: 'https://a.example.com/h' },
    ]) {
      const response = await t.fetch('/v1/webhooks', { method: 'POST', json: body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await readProblem(response)).type).toBe(PROBLEM('validation-error'));
    }
  });

  it('400 url-not-allowed when the URL policy refuses the target', async () => {
    const production = await startTestServer({ mode: 'production', validateResponses: false });
    try {
      const response = await production.fetch('/v1/webhooks', {
        method: 'POST',
        json: { url: 'http://receiver.example.com/h', events: ['scan.completed'] },
      });
      expect(response.status).toBe(400);
      const problem = await readProblem(response);
      expect(problem.type).toBe(PROBLEM('url-not-allowed'));
      expect(problem.errors?.[0]?.pointer).toBe('/body/url');
    } finally {
      await production.close();
    }
  });
});

describe('updateWebhook', () => {
  it('secret: omitted keeps it, null removes it, a string replaces it', async () => {
    const { body: webhook } = await createWebhook({ url: 'https://a.example.com/h', events: ['finding.created'], secret: SECRET });
    const update = (json: object) => t.fetch(`/v1/webhooks/${webhook.id}`, { method: 'PUT', json });
    const base = { url: 'https://b.example.com/h', events: ['finding.resolved'] };
    const kept = await (await update(base)).json();
    expect(kept).toMatchObject({ has_secret: true, url: 'https://b.example.com/h', events: ['finding.resolved'] });
    expect((await (await update({ ...base, secret: null })).json()).has_secret).toBe(false);
    const rotated = await update({ ...base, secret: 'another-secret-0123456789' });
    expect(rotated.status).toBe(200);
    expect((await rotated.json()).has_secret).toBe(true);
  });

  it('re-enabling clears the disabled_reason the service set; disabling keeps it', async () => {
    const { body: webhook } = await createWebhook({ url: 'https://a.example.com/h', events: ['finding.created'] });
    // What the delivery engine does on a 410 answer.
    await querySql(t.server, `UPDATE webhooks SET enabled = false, disabled_reason = 'endpoint_gone' WHERE id = '${webhook.id}'`);
    const base = { url: 'https://a.example.com/h', events: ['finding.created'] };
    const stillDisabled = await t.fetch(`/v1/webhooks/${webhook.id}`, {
      method: 'PUT',
      json: { ...base, enabled: false, description: 'note' },
    });
    expect(await stillDisabled.json()).toMatchObject({ enabled: false, disabled_reason: 'endpoint_gone', description: 'note' });
    const enabled = await t.fetch(`/v1/webhooks/${webhook.id}`, { method: 'PUT', json: base });
    expect(await enabled.json()).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('omitted fields take defaults; If-Match 412; 404', async () => {
    const { body: webhook, etag } = await createWebhook({
      url: 'https://a.example.com/h',
      events: ['finding.created'],
      description: 'x',
      enabled: false,
    });
    expect(webhook.enabled).toBe(false);
    const stale = await t.fetch(`/v1/webhooks/${webhook.id}`, {
      method: 'PUT',
      json: { url: 'https://a.example.com/h', events: ['finding.created'] },
      headers: { 'If-Match': '"old"' },
    });
    expect(stale.status).toBe(412);
    const response = await t.fetch(`/v1/webhooks/${webhook.id}`, {
      method: 'PUT',
      json: { url: 'https://a.example.com/h', events: ['finding.created'] },
      headers: { 'If-Match': etag },
    });
    expect(await response.json()).toMatchObject({ description: '', enabled: true });
    const missing = await t.fetch('/v1/webhooks/whk_01jbz0r5s6t7v8w9x0y1z2a3b4', {
      method: 'PUT',
      json: { url: 'https://a.example.com/h', events: ['finding.created'] },
    });
    expect(missing.status).toBe(404);
    expect((await readProblem(missing)).type).toBe(PROBLEM('not-found'));
  });
});

describe('get, list, delete', () => {
  it('get 200/304/404; list filters by enabled and event; delete 204/412/404', async () => {
    const fresh = await startTestServer();
    try {
      const make = async (json: object) => (await (await fresh.fetch('/v1/webhooks', { method: 'POST', json })).json()) as { id: string };
      const a = await make({ url: 'https://a.example.com/h', events: ['finding.created', 'scan.completed'] });
      const b = await make({ url: 'https://b.example.com/h', events: ['scan.completed'], enabled: false });
      const c = await make({ url: 'https://c.example.com/h', events: ['device.connected'] });
      const ids = async (query: string) =>
        (await (await fresh.fetch(`/v1/webhooks?${query}`)).json()).data.map((w: { id: string }) => w.id);
      expect(await ids('')).toEqual([c.id, b.id, a.id]);
      expect(await ids('event=scan.completed')).toEqual([b.id, a.id]);
      expect(await ids('event=scan.completed&enabled=true')).toEqual([a.id]);
      expect(await ids('enabled=false')).toEqual([b.id]);
      const { data } = await fresh.reader.GET('/v1/webhooks', { params: { query: { limit: 2 } } });
      expect(schemaErrors('WebhookList', data)).toBe('');
      expect(data!.next_cursor).toBeTypeOf('string');
      const rest = await fresh.reader.GET('/v1/webhooks', { params: { query: { limit: 2, cursor: data!.next_cursor! } } });
      expect(rest.data!.data.map((w) => w.id)).toEqual([a.id]);
      expect(rest.data!.next_cursor).toBeNull();

      const read = await fresh.fetch(`/v1/webhooks/${a.id}`);
      const etag = read.headers.get('etag')!;
      expect((await fresh.fetch(`/v1/webhooks/${a.id}`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
      expect((await fresh.fetch(`/v1/webhooks/${a.id}`, { method: 'DELETE', headers: { 'If-Match': '"x"' } })).status).toBe(412);
      expect((await fresh.fetch(`/v1/webhooks/${a.id}`, { method: 'DELETE', headers: { 'If-Match': etag } })).status).toBe(204);
      expect((await fresh.fetch(`/v1/webhooks/${a.id}`)).status).toBe(404);
      expect((await fresh.fetch(`/v1/webhooks/${a.id}`, { method: 'DELETE' })).status).toBe(404);
    } finally {
      await fresh.close();
    }
  });
});
