// A frontend team's page on one loopback origin calling, on another, the reference server, the
// stateful mock and the static mock, with the typed client bundled by esbuild: a cursor walk that
// ends, create, update with If-Match (the ETag must be readable cross-origin), a 412, delete — and
// no CORS error in the console.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../packages/api/src/document.ts';
import type { MockServer } from '../../packages/mock/src/prism.ts';
import { SOURCE_CONDITION } from '../../scripts/packages.ts';
import { parseApiKeys, testConfig } from '../../server/config.ts';
import { type RunningServer, startServer } from '../../server/server.ts';
import { statefulMockConfig, statefulMockDeps } from '../../server/stateful-mock/deps.ts';
import { staticMock as sharedStaticMock } from '../support/static-mock.ts';
import { type ChromiumSession, launchChromium } from './chromium.ts';

const KEY = 'frontend-writer-7e8f9a';
// The page's flow, in the browser: written against the client package's public entry.
const PAGE = `
import { createSecmonClient, unwrap } from 'secmon-api';
window.flow = async (apiUrl, key, staleHeaders) => {
  const secmon = createSecmonClient({ baseUrl: apiUrl, apiKey: key });
  // The static mock keeps no state: it is asked for its 412 (Prefer), the others earn it.
  const stale412 = createSecmonClient({ baseUrl: apiUrl, apiKey: key, headers: staleHeaders });
  const steps = [];
  for (const name of ['One', 'Two', 'Three']) unwrap(await secmon.POST('/v1/policies', { body: { name, severity: 'low' } }));
  const seen = [];
  let cursor;
  let pages = 0;
  do {
    const page = unwrap(await secmon.GET('/v1/policies', { params: { query: { limit: 2, ...(cursor ? { cursor } : {}) } } }));
    seen.push(...page.data.map((p) => p.id));
    cursor = page.next_cursor ?? undefined;
    pages++;
  } while (cursor && pages < 50);
  steps.push(['walk', pages, seen.length]);
  const created = await secmon.POST('/v1/policies', { body: { name: 'Browser policy', severity: 'high' } });
  const id = created.data.id;
  const etag = created.response.headers.get('etag');
  steps.push(['create', created.response.status, created.response.headers.get('location') === '/v1/policies/' + id, etag !== null]);
  const updated = await secmon.PUT('/v1/policies/{id}', { params: { path: { id }, header: { 'If-Match': etag } }, body: { name: 'Renamed', severity: 'high' } });
  steps.push(['update', updated.response.status, updated.response.headers.get('etag') !== null]);
  const stale = await stale412.PUT('/v1/policies/{id}', { params: { path: { id }, header: { 'If-Match': etag } }, body: { name: 'Again', severity: 'high' } });
  steps.push(['stale', stale.response.status, stale.error.type]);
  const removed = await secmon.DELETE('/v1/policies/{id}', { params: { path: { id }, header: { 'If-Match': updated.response.headers.get('etag') } } });
  steps.push(['delete', removed.response.status]);
  return steps;
};
// Error states built the way the frontend guide teaches: ask the mock for a documented error with Prefer.
window.preferred = async (apiUrl, key, findingId) => {
  const answers = [];
  for (const [prefer, call] of [
    ['code=500', (c) => c.GET('/v1/policies', {})],
    ['code=404', (c) => c.GET('/v1/findings/{id}', { params: { path: { id: findingId } } })],
  ]) {
    const { response, error } = await call(createSecmonClient({ baseUrl: apiUrl, apiKey: key, headers: { Prefer: prefer } }));
    answers.push([prefer, response.status, error.type, error.instance]);
  }
  return answers;
};
`;

let server: RunningServer;
let statefulMock: RunningServer;
let staticMock: MockServer;
let site: ReturnType<typeof createServer>;
let siteUrl: string;
// The process's Chromium (chromium.ts); each test has a context of its own, as fresh as a new browser's profile.
let browser: ChromiumSession;

beforeAll(async () => {
  server = await startServer(testConfig({ apiKeys: parseApiKeys(`${KEY}:read+write`), usingDefaultKeys: false }));
  // What `npm run mock -- --stateful` starts (packages/mock/test/stateful.test.ts runs the launcher itself).
  statefulMock = await startServer(statefulMockConfig({ SECMON_LOG_LEVEL: 'silent' }, ['--port', '0']), statefulMockDeps());
  staticMock = await sharedStaticMock();
  const bundle = await build({
    stdin: { contents: PAGE, resolveDir: new URL('../..', import.meta.url).pathname, loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: [SOURCE_CONDITION],
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.text;
  site = createServer((req, res) => {
    if (req.url === '/app.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    if (req.url === '/')
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>app</title><script type="module" src="/app.js"></script>');
    res.writeHead(404).end();
  });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  site?.close();
  await server?.close();
  await statefulMock?.close();
});

const TARGETS = [
  // [name, url, walk (pages, items), stale headers]: the server and the stateful mock hold 3 new
  // policies (+ 4 seeded examples); the static mock pages through its 4 example policies.
  ['the reference server', () => server.url, ['walk', 2, 3], {}],
  ['the stateful mock', () => statefulMock.url, ['walk', 4, 7], {}],
  ['the static mock', () => staticMock.url, ['walk', 2, 4], { Prefer: 'code=412' }],
] as const;

/** Opens the other-origin page once `fn` is defined, collecting its console lines (for CORS errors). */
async function otherOriginPage(context: BrowserContext, fn: string) {
  const page = await context.newPage();
  const console: string[] = [];
  page.on('console', (message) => console.push(`${message.type()}: ${message.text()}`));
  await page.goto(`${siteUrl}/`);
  await page.waitForFunction(`typeof window.${fn} === "function"`);
  return { page, corsErrors: () => console.filter((line) => /CORS|blocked/i.test(line)) };
}

describe('a page on another origin using the typed client', () => {
  it.each(TARGETS)(
    'against %s: walks every page, creates, updates with If-Match, gets a 412 and deletes, with no CORS error',
    async (_name, target, walk, staleHeaders) => {
      const context = await browser.newContext();
      try {
        const { page, corsErrors } = await otherOriginPage(context, 'flow');
        // The API on another origin: another host name and another port.
        const apiUrl = target().replace('127.0.0.1', 'localhost');
        const steps = await page.evaluate(
          ([url, key, headers]) =>
            (globalThis as unknown as { flow: (u: string, k: string, h: object) => Promise<unknown[]> }).flow(url, key, headers),
          [apiUrl, KEY, staleHeaders] as const,
        );
        expect(steps).toEqual([
          walk,
          ['create', 201, true, true],
          ['update', 200, true],
          ['stale', 412, 'https://secmon.dev/problems/precondition-failed'],
          ['delete', 204],
        ]);
        expect(corsErrors()).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});

describe('a page on another origin asking both mocks for an error state with Prefer', () => {
  const findingId = (loadDocument().components!.examples!.FindingList as { value: { data: { id: string }[] } }).value.data[0]!.id;
  it.each(TARGETS.slice(1))('%s answers the documented problem, with no CORS error', async (_name, target) => {
    const context = await browser.newContext();
    try {
      const { page, corsErrors } = await otherOriginPage(context, 'preferred');
      const answers = await page.evaluate(
        ([url, key, id]) =>
          (globalThis as unknown as { preferred: (u: string, k: string, i: string) => Promise<unknown[]> }).preferred(url, key, id),
        [target().replace('127.0.0.1', 'localhost'), KEY, findingId] as const,
      );
      expect(answers).toEqual([
        ['code=500', 500, 'https://secmon.dev/problems/internal-error', '/v1/policies'],
        ['code=404', 404, 'https://secmon.dev/problems/not-found', `/v1/findings/${findingId}`],
      ]);
      expect(corsErrors()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
