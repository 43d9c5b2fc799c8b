// The server assembled as the stateful mock (what `npm run mock -- --stateful` runs): POST
// /_mock/reset gives the seed back in place, whatever the app wrote, and the simulator takes any
// token as /v1 does; the server's own assembly has neither.
import { afterEach, describe, expect, it } from 'vitest';
import { loadDocument } from '../../packages/api/src/document.ts';
import { statefulMockConfig, statefulMockDeps } from '../../server/stateful-mock/deps.ts';
import { querySql, startTestServer, type TestServer } from './helpers.ts';

const doc = loadDocument();
const example = (name: string) => (doc.components!.examples![name] as { value: { data: { id: string; status?: string }[] } }).value.data;
const ANY = { authorization: 'Bearer whatever-the-app-sends' };

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const rows = async (server: TestServer, table: string) =>
  Number((await querySql(server.server, `SELECT COUNT(*) AS n FROM ${table}`))[0]!.n);

describe('the server assembled as the stateful mock', () => {
  it('resets to the seed: writes, queued deliveries and idempotency records all go, the examples come back', async () => {
    const server = (running = await startTestServer({}, statefulMockDeps()));
    const lists = async () =>
      Promise.all(
        ['policies', 'findings', 'webhooks'].map(async (path) => (await server.fetch(`/v1/${path}?limit=100`, { headers: ANY })).json()),
      );
    const seed = await lists();
    expect(seed.map((list) => list.data.map((item: { id: string }) => item.id))).toEqual(
      ['PolicyList', 'FindingList', 'WebhookList'].map((name) => example(name).map((item) => item.id)),
    );
    const [open] = example('FindingList').filter((finding) => finding.status === 'open');
    expect(open).toBeDefined();
    const created = await server.fetch('/v1/policies', {
      method: 'POST',
      headers: { ...ANY, 'idempotency-key': 'app-key-1' },
      json: { name: 'Written by the app', severity: 'low' },
    });
    expect(created.status).toBe(201);
    const finding = await server.fetch(`/v1/findings/${open!.id}`, { headers: ANY });
    const { title, severity } = await finding.json();
    const updated = await server.fetch(`/v1/findings/${open!.id}`, {
      method: 'PUT',
      headers: { ...ANY, 'if-match': finding.headers.get('etag')! },
      json: { title, severity, status: 'in_progress' },
    });
    expect(updated.status).toBe(200);
    expect(await rows(server, 'idempotency_keys')).toBe(1);
    expect(await rows(server, 'webhook_events')).toBeGreaterThan(0);

    const reset = await fetch(`${server.url}/_mock/reset`, { method: 'POST' });
    expect(reset.status).toBe(204);

    expect(await lists()).toEqual(seed);
    expect(await rows(server, 'idempotency_keys')).toBe(0);
    expect(await rows(server, 'webhook_events')).toBe(0);
    expect(await rows(server, 'webhook_deliveries')).toBe(0);
  });

  it('lets any token use the simulator', async () => {
    const server = (running = await startTestServer({}, statefulMockDeps()));
    const response = await server.fetch('/_simulator/events', { method: 'POST', headers: ANY, json: { event: 'finding.created' } });
    expect(response.status).toBe(202);
  });

  it('has no reset in its own assembly, and the simulator there wants a real key', async () => {
    const server = (running = await startTestServer());
    expect((await fetch(`${server.url}/_mock/reset`, { method: 'POST' })).status).toBe(404);
    expect((await server.fetch('/_simulator/events', { method: 'POST', headers: ANY, json: { event: 'finding.created' } })).status).toBe(
      401,
    );
  });

  it('runs in development mode, in memory, open to any origin, whatever flags it is given', () => {
    const config = statefulMockConfig({}, ['--mode', 'production', '--db', './data/other.db', '--cors-origins', '', '--port', '4010']);
    expect(config).toMatchObject({ mode: 'development', database: ':memory:', port: 4010 });
    expect(config.corsOrigins.some((origin) => typeof origin !== 'string' && origin.test('https://app.example'))).toBe(true);
  });

  it('refuses to take any token outside development mode', async () => {
    await expect(startTestServer({ mode: 'production' }, { anyToken: true })).rejects.toThrow(
      'any token as a key exists only in development mode',
    );
  });
});
