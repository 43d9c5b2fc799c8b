// The frontend's own tests, as a team would write them with msw/node in Vitest: every SecMon
// operation answers through the typed client, a refused request shows the documented problem, a
// scenario switches an answer per test, and each story renders with its own handlers.
import { setupServer } from 'msw/node';
import { createSecmonClient, type SecmonClient } from 'secmon-api';
import { createSecmonMsw } from 'secmon-msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as stories from './findings.stories.ts';
import { loadFindings, reportFinding } from './findings.ts';

const BASE = 'https://api.example.test';
const POLICY = 'pol_01jbz1a2b3c4d5e6f7g8h9j0k1';
const FINDING = 'fnd_01jbz3k7q2w9x8v6t5r4p3n2m1';
const WEBHOOK = 'whk_01jbz4c8d2e6f0g4h8j2k6m0n4';
const DEVICE = 'dev_01jbz1a2b3c4d5e6f7g8h9j0k1';

const mock = createSecmonMsw({ baseUrl: BASE });
const server = setupServer(...mock.handlers);
let client: SecmonClient;

beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' });
  // After listen(): the client keeps the fetch it is given, and MSW has just patched the global one.
  client = createSecmonClient({ baseUrl: BASE, apiKey: 'test-key', maxRetries: 0 });
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('the SecMon API, mocked from its document', () => {
  it('answers all 15 operations with their documented success', async () => {
    const policy = { name: 'Disk encryption', severity: 'high' as const };
    const finding = { title: 'Disk not encrypted', severity: 'high' as const, device_id: DEVICE };
    const webhook = { url: 'https://hooks.example.com/secmon', events: ['finding.created' as const] };
    const path = (id: string) => ({ params: { path: { id } } });
    const answers = [
      await client.GET('/v1/policies', {}),
      await client.POST('/v1/policies', { body: policy }),
      await client.GET('/v1/policies/{id}', path(POLICY)),
      await client.PUT('/v1/policies/{id}', { ...path(POLICY), body: policy }),
      await client.DELETE('/v1/policies/{id}', path(POLICY)),
      await client.GET('/v1/findings', {}),
      await client.POST('/v1/findings', { body: finding }),
      await client.GET('/v1/findings/{id}', path(FINDING)),
      await client.PUT('/v1/findings/{id}', { ...path(FINDING), body: { title: finding.title, severity: 'high', status: 'in_progress' } }),
      await client.DELETE('/v1/findings/{id}', path(FINDING)),
      await client.GET('/v1/webhooks', {}),
      await client.POST('/v1/webhooks', { body: webhook }),
      await client.GET('/v1/webhooks/{id}', path(WEBHOOK)),
      await client.PUT('/v1/webhooks/{id}', { ...path(WEBHOOK), body: webhook }),
      await client.DELETE('/v1/webhooks/{id}', path(WEBHOOK)),
    ];
    expect(answers.map(({ response }) => response.status)).toEqual([
      200, 201, 200, 200, 204, 200, 201, 200, 200, 204, 200, 201, 200, 200, 204,
    ]);
    const created = answers[6]!;
    expect(created.response.headers.get('location')).toMatch(/^\/v1\/findings\/fnd_/);
    expect(created.response.headers.get('etag')).toMatch(/^"/);
    expect(answers[0]!.response.headers.get('ratelimit')).toBeTruthy();
  });

  it('refuses an invalid request with the documented problem naming every invalid part', async () => {
    const result = await reportFinding(client, 'USB storage allowed', 'not-a-device');
    expect(result).toEqual({ invalid: '/body/device_id' });
    const { error, response } = await client.POST('/v1/findings', { body: { title: '', severity: 'high', device_id: 'nope' } });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(error?.type).toBe('https://secmon.dev/problems/validation-error');
    // Every rule a part breaks is listed: a too-short device id also misses the id pattern.
    expect(new Set(error?.errors?.map((part) => part.pointer))).toEqual(new Set(['/body/device_id', '/body/title']));
    expect(error?.detail).toBe(`The request has ${error?.errors?.length} invalid parts.`);
  });

  it('switches a scenario per test: a 404, then a named example', async () => {
    server.use(mock.scenario('getPolicy', { code: 404 }));
    const missing = await client.GET('/v1/policies/{id}', { params: { path: { id: POLICY } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.type).toBe('https://secmon.dev/problems/not-found');
    server.use(mock.scenario('getPolicy', { example: 'compliant' }));
    const named = await client.GET('/v1/policies/{id}', { params: { path: { id: POLICY } } });
    expect(named.data?.compliance_status).toBe('compliant');
  });
});

describe('the findings list, story by story', () => {
  const render = async (story: { parameters: { msw: { handlers: typeof mock.handlers } } }) => {
    server.use(...story.parameters.msw.handlers);
    return loadFindings(client);
  };

  it('Default lists the example page', async () => {
    expect((await render(stories.Default)).count).toBeGreaterThan(0);
  });
  it('Empty says all clear', async () => {
    expect((await render(stories.Empty)).html).toContain('All clear');
  });
  it('Unavailable shows the problem title', async () => {
    expect((await render(stories.Unavailable)).html).toBe('<p role="alert">Service unavailable</p>');
  });
  it('OneCritical shows the overridden finding', async () => {
    expect((await render(stories.OneCritical)).html).toContain('Root login over SSH (critical, open)');
  });
});
