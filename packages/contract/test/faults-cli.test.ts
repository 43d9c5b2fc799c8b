// The command line against a broken implementation: `npm run contract` must exit 1 naming the
// operation, check, request and schema error, write a JUnit failure, and leave reproductions that
// show the same fault when run on their own against the same target.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { KitOptions } from '../src/kit/context.ts';
import { writeReproductions } from '../src/kit/repro-files.ts';
import { runKit } from '../src/kit/runner.ts';
import { startFaultProxy } from './fault-proxy.ts';
import { dropPolicyName, versionSkips } from './implementation-faults.ts';
import { contents, type ReferenceTarget, startReferenceTarget } from './reference-target.ts';
import { runReplay } from './replay-run.ts';

let reference: ReferenceTarget;

beforeAll(async () => {
  reference = await startReferenceTarget();
});

afterAll(async () => {
  await reference?.server.close();
});

/**
 * Runs a written reproduction against a target (in a child process: not blocking it); the status and
 * JSON body of each step's answer. It must say the fault is there ("reproduced", exit 1).
 */
async function replay(
  script: string,
  baseUrl: string,
  kit: KitOptions,
): Promise<{ status: number; json: Record<string, unknown> | undefined }[]> {
  const ran = await runReplay(script, 'sh', baseUrl, kit);
  expect(ran.code, ran.stdout).toBe(1);
  expect(ran.stdout).toMatch(/^reproduced: /m);
  return ran.stdout
    .replace(/^reproduced: .*$/m, '')
    .split(/^### \d+\. .*$/m)
    .slice(1)
    .map((step) => {
      const [head = '', body = ''] = step.replace(/^\n/, '').split(/\r?\n\r?\n/, 2);
      const json = body.trim().startsWith('{') ? (JSON.parse(body) as Record<string, unknown>) : undefined;
      return { status: Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head)?.[1]), json };
    });
}

describe('npm run contract against a broken implementation', () => {
  it('exits 1, prints the operation, check, request and schema error, and writes a JUnit failure', async () => {
    const proxy = await startFaultProxy(reference.server.url, dropPolicyName);
    const before = await contents(reference.server.url);
    const scratch = mkdtempSync(join(tmpdir(), 'contract-cli-'));
    const junit = join(scratch, 'junit.xml');
    try {
      const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
      const child = spawn(
        process.execPath,
        [
          cli,
          '--base-url',
          proxy.url,
          '--api-key',
          reference.kit.apiKey,
          '--read-key',
          reference.kit.readKey!,
          '--cases',
          '4',
          '--report',
          junit,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } },
      );
      // On a time-out the CLI (and the suite it runs, to which it passes the signal on) must not outlive the test.
      onTestFinished(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGTERM')));
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, output).toBe(1);
      expect(output).toContain('getPolicy (GET /v1/policies/{id}) — check "success-response" failed');
      expect(output).toMatch(/request: {2}GET http:\/\/127\.0\.0\.1:\d+\/v1\/policies\/pol_/);
      expect(output).toMatch(/\/ must have required property 'name'/);
      expect(output).toMatch(/getPolicy \(GET \/v1\/policies\/\{id\}\) +✗/);
      expect(output).toContain('gate FAILED');
      const report = readFileSync(junit, 'utf8');
      expect(report).toMatch(/<testsuites [^>]*failures="[1-9]/);
      expect(report).toMatch(
        /<testcase classname="getPolicy" name="success-response" time="[\d.]+">\n\s*<failure message="the schema at [^"]*: `name` is required[^"]*" type="schema"/,
      );
      expect([...report.matchAll(/<testcase [^>]*>/g)].join('\n')).not.toMatch(/https?:/);
      expect(report).toMatch(/<failure message="the schema[^>]*>[^<]*Reproduction \(sh\):\n#!\/bin\/sh/);
      expect(report.match(/<failure message="the schema[^"]*`name` is required/g)).toHaveLength(1);
      expect(output.match(/^✗ the schema at [^\n]*`name` is required/gm)).toHaveLength(1);
      // A failing run cleans up too.
      expect(await contents(reference.server.url)).toEqual(before);
      // Its reproduction, written beside the report and run alone against the same target, shows the same fault.
      const written = readdirSync(join(scratch, 'repro')).sort();
      expect(written.filter((file) => /^\d+-getPolicy.*success-response\.(sh|http)$/.test(file))).toHaveLength(2);
      expect(output).toMatch(/replay: sh \S+\/repro\/\d+-getPolicy\S*\.sh/);
      const script = join(scratch, 'repro', written.find((file) => /^\d+-getPolicy.*success-response\.sh$/.test(file))!);
      const last = (await replay(script, proxy.url, reference.kit)).at(-1)!;
      expect(last.status).toBe(200);
      expect(last.json).toMatchObject({ id: expect.stringMatching(/^pol_/) });
      expect(last.json).not.toHaveProperty('name');
    } finally {
      await proxy.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a reproduction replays the failure on its own', () => {
  it('an update raising version by two: the replay creates its own policy, updates it with its own ETag and sees version 3', async () => {
    const proxy = await startFaultProxy(reference.server.url, versionSkips);
    const scratch = mkdtempSync(join(tmpdir(), 'contract-repro-'));
    try {
      const run = await runKit(
        { ...reference.kit, baseUrl: proxy.url },
        { only: (planned) => planned.subjects[0] === 'createPolicy (POST /v1/policies)' && planned.check === 'lifecycle' },
      );
      const [script] = writeReproductions(scratch, run.results).values();
      const steps = await replay(script!, proxy.url, reference.kit);
      expect(steps.map((step) => step.status)).toEqual([201, 200]);
      expect(steps.map((step) => step.json?.version)).toEqual([1, 3]);
      expect(steps[1]!.json?.id).toBe(steps[0]!.json?.id);
      expect(readFileSync(script!, 'utf8')).toContain(`-H 'If-Match: '"\${ETAG_1}"`);
    } finally {
      await proxy.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
