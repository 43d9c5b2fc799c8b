// Webhook secrets and API keys never appear in a response (body or header) or a log line, after
// every endpoint has been exercised, errors included.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listOperations, loadDocument } from '../../packages/api/src/document.ts';
import { DEVICE_ID, READER_KEY, startTestServer, type TestServer, WRITE_ONLY_KEY, WRITER_KEY } from './helpers.ts';

const SECRETS = ['whsec_first_8f2c0e1a9b7d', 'whsec_rotated_4a6c8e0b2d', 'whsec_idempotent_9e1d3c5b'];
const KEYS = [WRITER_KEY, READER_KEY, WRITE_ONLY_KEY, 'Bearer-unknown-key-77aa'];

let t: TestServer;
const seen: string[] = [];

beforeAll(async () => {
  t = await startTestServer({ rateLimitPerMinute: 1000 });
});
afterAll(() => t.close());

async function call(path: string, init: Parameters<TestServer['fetch']>[1] = {}) {
  const response = await t.fetch(path, init);
  seen.push(`${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`);
  return response;
}

it('no secret or key in any response or log line', async () => {
  const webhook = await (
    await t.fetch('/v1/webhooks', {
      method: 'POST',
      json: { url: 'https://a.example.com/h', events: ['finding.created'], secret: SECRETS[0] },
    })
  ).json();
  await call('/v1/webhooks', {
    method: 'POST',
    json: { url: 'https://b.example.com/h', events: ['finding.created'], secret: SECRETS[2] },
    headers: { 'Idempotency-Key': 'k1' },
  });
  await call('/v1/webhooks', {
    method: 'POST',
    json: { url: 'https://b.example.com/h', events: ['finding.created'], secret: SECRETS[2] },
    headers: { 'Idempotency-Key': 'k1' },
  });
  await call('/v1/webhooks', {
    method: 'POST',
    json: { url: 'https://b.example.com/h', events: ['finding.created'], secret: SECRETS[1] },
    headers: { 'Idempotency-Key': 'k1' },
  });
  await call('/v1/webhooks', {
    method: 'POST',
    json: { url: 'https://b.example.com/h', events: ['finding.created'], secret: SECRETS[1], bogus: SECRETS[1] },
  });
  await call('/v1/webhooks', { method: 'POST', json: { url: 'not a url', events: ['finding.created'], secret: SECRETS[1] } });
  await call(`/v1/webhooks/${webhook.id}`, {
    method: 'PUT',
    json: { url: 'https://a.example.com/h', events: ['finding.created'], secret: SECRETS[1] },
  });
  await call(`/v1/webhooks/${webhook.id}`, {
    method: 'PUT',
    json: { url: 'https://a.example.com/h', events: ['finding.created'], secret: SECRETS[1] },
    headers: { 'If-Match': '"x"' },
  });
  await call(`/v1/webhooks/${webhook.id}`, {
    method: 'PUT',
    body: `{"secret":"${SECRETS[1]}"`,
    headers: { 'Content-Type': 'application/json' },
  });
  await call(`/v1/webhooks/${webhook.id}`, {
    method: 'PUT',
    body: `{"url": "https://a.example.com/h", "secret": ${SECRETS[1]}}`,
    headers: { 'Content-Type': 'application/json' },
  });
  await call('/v1/webhooks', { method: 'POST', body: `${SECRETS[1]}`, headers: { 'Content-Type': 'application/json' } });
  await call(`/v1/webhooks/${webhook.id}?secret=${SECRETS[1]}`);
  await call(`/v1/webhooks/${webhook.id}`);
  await call('/v1/webhooks?limit=100');
  await call('/v1/webhooks?event=finding.created');
  expect((await call('/v1/policies', { method: 'POST', json: { name: 'p', severity: 'low' } })).status).toBe(201);
  const policyId = (await (await t.fetch('/v1/policies')).json()).data[0].id;
  await call('/v1/policies');
  await call(`/v1/policies/${policyId}`);
  await call(`/v1/policies/${policyId}`, { method: 'PUT', json: { name: 'p2', severity: 'low' } });
  const finding = await (
    await t.fetch('/v1/findings', { method: 'POST', json: { title: 'f', severity: 'low', device_id: DEVICE_ID, policy_id: policyId } })
  ).json();
  await call('/v1/findings');
  await call(`/v1/findings/${finding.id}`);
  await call(`/v1/findings/${finding.id}`, {
    method: 'PUT',
    json: { title: 'f', severity: 'low', status: 'resolved', resolution: { reason: 'fixed' } },
  });
  await call(`/v1/findings/${finding.id}`, { method: 'DELETE' });
  await call(`/v1/policies/${policyId}`, { method: 'DELETE' });
  for (const key of KEYS) {
    for (const op of listOperations(loadDocument())) {
      await call(op.path.replace('{id}', webhook.id), { method: op.method.toUpperCase(), headers: { Authorization: `Bearer ${key}` } });
    }
  }
  await call('/v1/policies', { headers: { Authorization: `Bearer ${WRITER_KEY} extra` } });
  await call('/healthz');
  await call('/readyz');
  await call('/nowhere');
  await call(`/v1/webhooks/${webhook.id}`, { method: 'DELETE' });

  expect(seen.length).toBeGreaterThan(40);
  expect(t.logs.length).toBeGreaterThan(seen.length);
  const everything = [...seen, ...t.logs].join('\n');
  for (const secret of [...SECRETS, ...KEYS]) expect(everything, secret).not.toContain(secret);
});
