// The packages as outsiders meet them: packed with `npm pack`, installed from the tarballs into
// fresh projects outside this repository, and used there on the machine's own Node (plain ESM, no
// TypeScript loader), with a stock tsconfig, in Chromium, and with npx.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { deliveryHeaders } from '../../common/delivery-headers.ts';
import { createReceiverApp } from '../../examples/receiver/app.ts';
import { listMediaTypes, loadDocument } from '../../lib/document.ts';
import { sign, verifySignature } from '../../lib/signing.ts';
import { manifestOf, PACKAGES, type PackageName } from '../../scripts/packages.ts';
import { root } from '../../scripts/pipeline.ts';
import { launchChromium } from '../browser/chromium.ts';
import { type ReferenceTarget, startReferenceTarget, WRITER_KEY } from '../kit/reference-target.ts';
import { expectRejectedAtMark } from './misuse.ts';
import { createProject, installedPackages, machineNode, npmInstall, outsiderEnv, packAll, run, type Tarballs } from './outsider.ts';

const document = loadDocument();
const NAMES = Object.keys(PACKAGES) as PackageName[];
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

let scratch: string;
let tarballs: Tarballs;
let reference: ReferenceTarget;
const projects: string[] = [];
const project = (label: string, files?: Record<string, string>) => {
  const dir = createProject(label, files);
  projects.push(dir);
  return dir;
};

/** Before the describe's tests: a clean project with one packed package installed, in `dir`. */
function installedBeforeAll(label: string, tarball: () => string, files?: Record<string, string>): { dir: string } {
  const installed = { dir: '' };
  beforeAll(async () => {
    installed.dir = project(label, files);
    await npmInstall(installed.dir, [tarball()]);
  }, 240_000);
  return installed;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'secmon-tarballs-'));
  tarballs = await packAll(scratch);
  reference = await startReferenceTarget();
}, 120_000);

afterAll(async () => {
  await reference?.server.close();
  for (const dir of [scratch, ...projects]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The first fenced block of a language in a package README: the example the README promises. */
function readmeExample(name: PackageName, language: string): string {
  const readme = readFileSync(join(root, PACKAGES[name].dir, 'README.md'), 'utf8');
  const block = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!block) throw new Error(`${name} README has no ${language} example`);
  return block[1]!;
}

describe('every package', () => {
  it.each(NAMES)('%s: version is the document version, engines and dependency ranges are the repository’s own', (name) => {
    const manifest = manifestOf(name);
    expect(manifest.version).toBe(document.info.version);
    expect(manifest.engines.node).toBe('>=20.19.0');
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
      expect(rootManifest.dependencies[dependency] ?? rootManifest.devDependencies[dependency], dependency).toBe(range);
    }
  });

  it.each(NAMES)('%s: the built code imports only node: built-ins and declared dependencies', (name) => {
    const manifest = manifestOf(name);
    const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const dist = join(root, PACKAGES[name].dir, 'dist');
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
    const specifiers = files.flatMap((file) =>
      [
        ...readFileSync(join(dist, file), 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*"([^"]+)"|import\("([^"]+)"\)/g),
      ].map((match) => match[1] ?? match[2]!),
    );
    const bare = specifiers.filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'));
    const packageOf = (specifier: string) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
    expect(bare.length).toBeGreaterThan(0);
    expect([...new Set(bare.map(packageOf))].filter((dependency) => !declared.has(dependency))).toEqual([]);
  });

  it.each(NAMES)('%s: the tarball holds only dist/, the README and package.json', async (name) => {
    const listing = await run('tar', ['-tzf', tarballs[name]], { cwd: scratch });
    const files = listing.output.trim().split('\n');
    expect(files).toContain('package/README.md');
    expect(files).toContain('package/package.json');
    expect(files.filter((file) => !/^package\/(dist\/.+|README\.md|package\.json)$/.test(file))).toEqual([]);
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
  });

  it.each(NAMES)('%s: publint --strict finds nothing', async (name) => {
    const result = await run(process.execPath, [join(root, 'node_modules/publint/src/cli.js'), PACKAGES[name].dir, '--strict'], {
      cwd: root,
      env: { ...outsiderEnv(process.execPath) },
    });
    expect(result.output).toContain('All good!');
    expect(result.code).toBe(0);
  });
});

describe('secmon-api, the client', () => {
  const client = installedBeforeAll('client', () => tarballs.client, { 'example.mjs': readmeExample('client', 'js') });

  it('@arethetypeswrong/cli finds no problem for ESM consumers (node16 and bundlers)', async () => {
    const attw = join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js');
    const result = await run(
      process.execPath,
      [attw, tarballs.client, '--profile', 'esm-only', '--exclude-entrypoints', './openapi.yaml', '--format', 'json'],
      {
        cwd: scratch,
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
    const name = tarballs.client.split('/').at(-1)!;
    expect(name).toBe(`secmon-api-${document.info.version}.tgz`);
    expect(readFileSync(join(root, 'lib/README.md'), 'utf8')).toContain(`npm install /path/to/${name}`);
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
      await listen(newer);
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
        env: { ...outsiderEnv(), EVENT: JSON.stringify(event), SECMON_URL: `http://127.0.0.1:${(newer.address() as AddressInfo).port}` },
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
    const result = await run(machineNode(), ['--version'], { cwd: scratch });
    const [major, minor] = result.output.trim().slice(1).split('.').map(Number);
    expect(major! > 20 || (major === 20 && minor! >= 19), result.output).toBe(true);
  });

  describe('a TypeScript project with a stock strict nodenext tsconfig', () => {
    let tsProject: string;
    const misuseDir = join(root, 'examples/consumer/misuse');

    beforeAll(async () => {
      tsProject = project('typescript');
      cpSync(join(root, 'examples/consumer'), tsProject, { recursive: true });
      await npmInstall(tsProject, [
        tarballs.client,
        `typescript@${rootManifest.devDependencies.typescript}`,
        `@types/node@${rootManifest.devDependencies['@types/node']}`,
      ]);
    }, 240_000);

    const tsc = (config: string) =>
      run(process.execPath, [join(tsProject, 'node_modules/typescript/bin/tsc'), '--pretty', 'false', '-p', config], { cwd: tsProject });

    it('compiles the consumer examples to JavaScript with no error', async () => {
      const result = await tsc('tsconfig.json');
      expect(result.output).toBe('');
      expect(result.code).toBe(0);
      expect(existsSync(join(tsProject, 'out/client.js'))).toBe(true);
    });

    const files = readdirSync(misuseDir).filter((file) => file.endsWith('.ts'));
    it('has a misuse file per kind of mistake', () => {
      expect(files.sort()).toEqual([
        'unset-secret.ts',
        'wrong-body-field.ts',
        'wrong-enum-value.ts',
        'wrong-event-field.ts',
        'wrong-path.ts',
      ]);
    });

    let misuse: ReturnType<typeof tsc> | undefined;
    it.each(files)('rejects %s at its marked line, naming the culprit', async (file) => {
      expectRejectedAtMark(misuseDir, file, await (misuse ??= tsc('misuse/tsconfig.json')));
    });
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
    await listen(site);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
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

describe('secmon-contract, the contract kit', () => {
  const kit = installedBeforeAll('contract', () => tarballs.contract);

  it('npx secmon-contract --version names the document it carries and the versions it can judge', async () => {
    const result = await run('npx', ['secmon-contract', '--version'], { cwd: kit.dir });
    expect(result.code, result.output).toBe(0);
    expect(result.stdout.trim()).toBe(
      [
        `secmon-contract ${document.info.version} (checks ${document.info.title} ${document.info.version})`,
        'versions of the contract it can judge (--contract-version): 1.0.0, 1.1.0',
      ].join('\n'),
    );
  });

  it('npx secmon-contract passes against the reference server on the machine’s Node and writes JUnit in the caller’s folder', async () => {
    const result = await run(
      'npx',
      [
        'secmon-contract',
        '--base-url',
        reference.server.url,
        '--api-key',
        reference.kit.apiKey,
        '--read-key',
        reference.kit.readKey!,
        '--cases',
        '8',
        '--rate-probe',
        'skip',
        '--compressed-retries',
        '--report',
        'reports/junit.xml',
      ],
      { cwd: kit.dir, env: outsiderEnv(machineNode()), timeoutMs: 180_000 },
    );
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('gate PASSED');
    const junit = readFileSync(join(kit.dir, 'reports/junit.xml'), 'utf8');
    const tests = Number(/<testsuites [^>]*tests="(\d+)"/.exec(junit)?.[1]);
    expect(tests).toBeGreaterThan(50);
    expect(junit).toMatch(/<testsuites [^>]*failures="0"/);
    expect(junit.match(/<testcase /g)).toHaveLength(tests);
  }, 200_000);

  it('npm start, then the README’s kit line as printed (the development keys), passes the gate, 429 probe included', async () => {
    // npm start as a newcomer runs it (development mode, its default keys), on a free port and a throw-away database.
    const server = spawn('npm', ['start', '--', '--port', '0', '--db', ':memory:'], {
      cwd: root,
      env: Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('SECMON_'))),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    onTestFinished(() => void (server.exitCode === null && process.kill(-server.pid!, 'SIGTERM')));
    let log = '';
    server.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    server.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await expect.poll(() => /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(log)?.[1], { timeout: 60_000, interval: 200 }).toBeDefined();
    const port = /"url":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(log)![1]!;
    const line = readmeExample('contract', 'sh')
      .split('\n')
      .find((text) => text.startsWith('npx secmon-contract --base-url http://127.0.0.1:3000 '))!;
    const result = await run('sh', ['-c', line.replace(':3000', `:${port}`)], {
      cwd: kit.dir,
      env: { ...outsiderEnv(machineNode()), RW_KEY: 'dev-admin', RO_KEY: 'dev-reader' },
      timeoutMs: 240_000,
    });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/\d+ checks: (\d+) passed, 0 failed, 0 skipped, 0 known limits — gate PASSED/);
    expect(result.output).toMatch(/✓ \[\d+\/\d+\] listPolicies \(GET \/v1\/policies\) › rate-limit-429/);
  }, 300_000);

  it('npx secmon-contract receiver passes the example receiver and fails one that accepts everything', async () => {
    const secret = 'whsec_outsider_receiver_check';
    const example = createServer(createReceiverApp({ secret, logger: pino({ level: 'silent' }) }));
    const acceptsAll = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
    await Promise.all([listen(example), listen(acceptsAll)]);
    try {
      const check = (server: Server) =>
        run('npx', ['secmon-contract', 'receiver', '--url', `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`], {
          cwd: kit.dir,
          env: { ...outsiderEnv(machineNode()), SECMON_WEBHOOK_SECRET: secret },
        });
      const passed = await check(example);
      expect(passed.code, passed.output).toBe(0);
      expect(passed.output).toMatch(/receiver PASSED: 12 of 12 cases hold/);
      const failed = await check(acceptsAll);
      expect(failed.code, failed.output).toBe(1);
      expect(failed.output).toMatch(/receiver FAILED: 7 of 12 cases hold/);
    } finally {
      example.close();
      acceptsAll.close();
    }
  });

  it('answers bad options with exit 2 and the usage', async () => {
    const result = await run('npx', ['secmon-contract', '--api-key', 'k'], { cwd: kit.dir });
    expect(result.code).toBe(2);
    expect(result.output).toContain('--base-url is required');
    expect(result.output).toContain('usage: secmon-contract');
  });
});

describe('secmon-mock, the mock and the event sender', () => {
  const mock = installedBeforeAll('mock', () => tarballs.mock);

  // The installed bin itself rather than npx, so the SIGTERM reaches the mock as a supervisor's would.
  it('secmon-mock serves the documented examples and stops on SIGTERM', async () => {
    const child = spawn(join(mock.dir, 'node_modules/.bin/secmon-mock'), ['--port', '0'], {
      cwd: mock.dir,
      env: outsiderEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const ready = /mock ready on (http:\/\/[\d.]+:\d+)/.exec(output);
        if (ready) resolve(ready[1]!);
      });
      child.on('exit', () => reject(new Error(`secmon-mock exited before it was ready:\n${output}`)));
    });
    const response = await fetch(`${url}/v1/policies`, { headers: { authorization: 'Bearer any-key-at-all' } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { id: string }[] };
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data[0]!.id).toMatch(/^pol_/);
    const unauthorized = await fetch(`${url}/v1/policies`);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('content-type')).toContain('application/problem+json');
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, output).toBe(0);
  }, 60_000);

  it('npx secmon-events sends every event type, signed, to a receiver', async () => {
    const secret = 'whsec_outsider_receiver';
    const received: { event: string | undefined; valid: boolean }[] = [];
    const receiver = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      received.push({
        event: req.headers['x-service-event'] as string | undefined,
        valid: verifySignature(Buffer.concat(chunks), req.headers['x-service-signature'], secret),
      });
      res.writeHead(204).end();
    });
    await listen(receiver);
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const result = await run('npx', ['secmon-events', '--url', url, '--secret', secret], { cwd: mock.dir });
      expect(result.code, result.output).toBe(0);
      expect(new Set(received.map((r) => r.event))).toEqual(new Set(Object.keys(document.webhooks!)));
      expect(received.every((r) => r.valid)).toBe(true);
    } finally {
      receiver.close();
    }
  });
});

async function listen(server: Server): Promise<void> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
}

/** The first named example of an event type's body in the document. */
function exampleEvent(type: string): unknown {
  const media = listMediaTypes(document).find((m) => m.schemaPointer.startsWith(`#/webhooks/${type}/`));
  return media!.examples[0]!.value;
}
