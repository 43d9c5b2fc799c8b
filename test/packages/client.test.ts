// secmon-api as an integrator meets it: packed, installed from its tarball into a fresh project
// outside this repository, and used there on the machine's own Node and on Node 24 (plain ESM, no
// TypeScript loader), and in Chromium from an esbuild bundle.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it, onTestFinished } from 'vitest';
import { deliveryHeaders } from '../../common/delivery-headers.ts';
import { sign } from '../../packages/api/src/signing.ts';
import { WRITER_KEY } from '../../packages/contract/test/reference-target.ts';
import { installedPackages, machineNode, outsiderEnv, run } from '../../scripts/outsider.ts';
import { root } from '../../scripts/pipeline.ts';
import { launchChromium } from '../browser/chromium.ts';
import { document, exampleEvent, readmeExample } from './examples.ts';
import { installedBeforeAll, listen } from './installed.ts';
import { referenceBeforeAll } from './reference.ts';

const reference = referenceBeforeAll();

describe('secmon-api, the client', () => {
  const client = installedBeforeAll('client', (tarballs) => [tarballs.client], { files: { 'example.mjs': readmeExample('client', 'js') } });

  it('@arethetypeswrong/cli finds no problem for ESM consumers (node16 and bundlers)', async () => {
    const attw = join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js');
    const result = await run(
      process.execPath,
      [attw, client.tarballs.client, '--profile', 'esm-only', '--exclude-entrypoints', './openapi.yaml', '--format', 'json'],
      {
        cwd: client.dir,
        env: outsiderEnv(process.execPath),
      },
    );
    expect(result.code, result.output).toBe(0);
    const report = JSON.parse(result.stdout) as {
      analysis: { entrypoints: Record<string, unknown> };
      problems: Record<string, { entrypoint: string; resolutionKind: string }[]>;
    };
    expect(Object.keys(report.analysis.entrypoints)).toEqual(expect.arrayContaining(['.', './client', './webhooks', './types']));
    // Only what the esm-only profile sets aside: pre-exports resolution, and require() of ESM (which
    // Node 20.19+ supports, but TypeScript's node16-cjs mode still reports).
    const problems = Object.values(report.problems).flat();
    expect(problems.filter((problem) => problem.resolutionKind !== 'node10' && problem.resolutionKind !== 'node16-cjs')).toEqual([]);
  });

  it('its README says how to install the tarball `npm run pack` makes, by its real name', () => {
    const name = client.tarballs.client.split('/').at(-1)!;
    expect(name).toBe(`secmon-api-${document.info.version}.tgz`);
    expect(readFileSync(join(root, 'packages/api/README.md'), 'utf8')).toContain(`npm install /path/to/${name}`);
  });

  it('installs only its own dependencies: no server, mock or test framework', () => {
    const installed = installedPackages(client.dir);
    expect(installed).toEqual(expect.arrayContaining(['secmon-api', 'openapi-fetch', 'ajv', '@noble/hashes']));
    for (const unwanted of ['express', 'pino', 'express-openapi-validator', '@stoplight/prism-cli', 'vitest', 'undici']) {
      expect(installed).not.toContain(unwanted);
    }
  });

  const nodes = [
    ['the machine’s Node', () => machineNode()],
    ['the project’s Node 24', () => process.execPath],
  ] as const;
  it.each(nodes)('the README example runs as plain ESM on %s: creates, updates and lists, then verifies an event', async (_label, node) => {
    const api = (path: string) => fetch(`${reference.server.url}${path}`, { headers: { authorization: `Bearer ${WRITER_KEY}` } });
    const before = ((await (await api('/v1/policies?limit=100')).json()) as { data: unknown[] }).data.length;
    const result = await run(node(), ['example.mjs'], {
      cwd: client.dir,
      env: { ...outsiderEnv(), SECMON_URL: reference.server.url, SECMON_API_KEY: WRITER_KEY },
    });
    expect(result.code, result.output).toBe(0);
    const id = /created (pol_\w+) \(version 1\)/.exec(result.output)?.[1];
    expect(id, result.output).toBeDefined();
    expect(result.output).toContain(`updated ${id} to version 2: critical`);
    expect(result.output).toContain(`listed ${before + 1} policies`);
    expect(result.output).toMatch(/verified finding\.created for fnd_\w+/);
    expect(await (await api(`/v1/policies/${id}`)).json()).toMatchObject({
      name: 'Disk encryption (all laptops)',
      severity: 'critical',
      version: 2,
    });
  });

  // The Versioning section lets v1 add fields and enum values to what the service sends: a client
  // released with this version must take a newer service's answers and events as they come.
  it.each(nodes)(
    'reads what a newer v1 sends on %s: an event and a response with an unknown field and enum value',
    async (_label, node) => {
      const created = exampleEvent('finding.created') as { data: Record<string, unknown> };
      const event = { ...created, region: 'eu-1', data: { ...created.data, severity: 'urgent', asset_tags: ['laptop'] } };
      const policy = {
        ...((await (
          await fetch(`${reference.server.url}/v1/policies?limit=1`, { headers: { authorization: `Bearer ${WRITER_KEY}` } })
        ).json()) as object),
        cost_centre: 'it-ops',
      };
      const newer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(policy)));
      const newerUrl = await listen(newer);
      onTestFinished(() => void newer.close());
      writeFileSync(
        join(client.dir, 'newer.mjs'),
        `import { createSecmonClient, parseEvent, InvalidEventError } from 'secmon-api';
const event = parseEvent(process.env.EVENT);
const client = createSecmonClient({ baseUrl: process.env.SECMON_URL, apiKey: 'key_outsider_1' });
const { data } = await client.GET('/v1/policies', {});
let refused = '';
try { parseEvent(process.env.EVENT.replace('"urgent"', '42')); } catch (error) { refused = error instanceof InvalidEventError ? error.message : 'other'; }
console.log(JSON.stringify({ node: process.version, event, cost_centre: data.cost_centre, refused }));
`,
      );
      const result = await run(node(), ['newer.mjs'], {
        cwd: client.dir,
        env: { ...outsiderEnv(), EVENT: JSON.stringify(event), SECMON_URL: newerUrl },
      });
      expect(result.code, result.output).toBe(0);
      const out = JSON.parse(result.stdout);
      expect(out.event).toEqual(event);
      expect(out.cost_centre).toBe('it-ops');
      expect(out.refused).toMatch(/severity/);
      if (_label === nodes[0][0]) expect(out.node).toMatch(/^v20\./);
    },
  );

  it('machine Node satisfies the engines floor the packages state', async () => {
    const result = await run(machineNode(), ['--version'], { cwd: client.dir });
    const [major, minor] = result.output.trim().slice(1).split('.').map(Number);
    expect(major! > 20 || (major === 20 && minor! >= 19), result.output).toBe(true);
  });

  it('works in Chromium from an esbuild bundle: a 429 is waited out and retried, both signatures verify', async () => {
    writeFileSync(
      join(client.dir, 'page.js'),
      `import { createSecmonClient, parseEvent, verifySignature, verifyWebhook } from 'secmon-api';
window.secmonCheck = async ({ body, signature, headers, secret }) => {
  const client = createSecmonClient({ baseUrl: location.origin, apiKey: 'browser-key-123' });
  const started = performance.now();
  const { data, response } = await client.GET('/v1/policies', {});
  return {
    status: response.status,
    policies: data.data.length,
    waitedMs: performance.now() - started,
    valid: verifySignature(body, signature, secret),
    forged: verifySignature(body, signature, secret + 'x'),
    event: parseEvent(new TextEncoder().encode(body)).event,
    verified: verifyWebhook(new TextEncoder().encode(body), new Headers(headers), ['whsec_previous_secret_00', secret]).event,
    refused: (() => { try { verifyWebhook(body, headers, secret + 'x'); } catch (error) { return error.reason; } })(),
  };
};
`,
    );
    await build({
      absWorkingDir: client.dir,
      entryPoints: ['page.js'],
      outfile: join(client.dir, 'page.bundle.js'),
      bundle: true,
      platform: 'browser',
      format: 'esm',
      logLevel: 'silent',
    });
    const bundle = readFileSync(join(client.dir, 'page.bundle.js'), 'utf8');
    expect(bundle).not.toMatch(/from ["']node:/);

    // One origin serves the page and plays the API: the first call is rate limited for a second.
    const calls: { path: string; authorization: string | undefined }[] = [];
    const site = createServer((req: IncomingMessage, res) => {
      if (req.url === '/')
        return res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><script type="module" src="/page.bundle.js"></script>');
      if (req.url === '/page.bundle.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      if (!req.url?.startsWith('/v1/')) return res.writeHead(404).end();
      calls.push({ path: req.url ?? '', authorization: req.headers.authorization });
      if (calls.length === 1) {
        return res.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '1' }).end(
          JSON.stringify({
            type: 'https://secmon.dev/problems/rate-limited',
            title: 'Too many requests',
            status: 429,
            detail: 'Wait.',
            instance: '/v1/policies',
          }),
        );
      }
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [], next_cursor: null }));
    });
    const siteUrl = await listen(site);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${siteUrl}/`);
      await page.waitForFunction(() => 'secmonCheck' in globalThis);
      const body = JSON.stringify(exampleEvent('finding.resolved'));
      const secret = 'whsec_browser_test_1234';
      const result = await page.evaluate(
        (input) => (globalThis as unknown as { secmonCheck: (i: unknown) => Promise<unknown> }).secmonCheck(input),
        {
          body,
          signature: sign(body, secret),
          headers: deliveryHeaders({
            body,
            eventType: 'finding.resolved',
            deliveryId: crypto.randomUUID(),
            webhookId: 'whk_01jbz4c8d2e6f0g4h8j2k6m0n4',
            secret,
          }),
          secret,
        },
      );
      expect(errors).toEqual([]);
      expect(result).toMatchObject({
        status: 200,
        policies: 0,
        valid: true,
        forged: false,
        event: 'finding.resolved',
        verified: 'finding.resolved',
        refused: 'signature-mismatch',
      });
      expect((result as { waitedMs: number }).waitedMs).toBeGreaterThanOrEqual(900);
      expect(calls).toEqual([
        { path: '/v1/policies', authorization: 'Bearer browser-key-123' },
        { path: '/v1/policies', authorization: 'Bearer browser-key-123' },
      ]);
    } finally {
      await browser.close();
      site.close();
    }
  });
});
