// The kit judges by version, as an outside team meets it: the packed secmon-contract installed in a
// folder outside the repository, run with npx against a stand-in implementation of 1.0.0 (the
// reference server behind a proxy that strips the Standard Webhooks headers 1.1.0 added to every
// delivery) and against the reference server itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries } from '../../packages/contract/test/fault-dsl.ts';
import { startFaultProxy } from '../../packages/contract/test/fault-proxy.ts';
import { machineNode, outsiderEnv, run } from '../../scripts/outsider.ts';
import { installedBeforeAll } from './installed.ts';
import { referenceBeforeAll } from './reference.ts';

const kitProject = installedBeforeAll('kit-versions', (tarballs) => [tarballs.contract]);
const reference = referenceBeforeAll();
let standIn: { url: string; close(): Promise<void> };

const withoutStandardWebhooks = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !name.toLowerCase().startsWith('webhook-')));

beforeAll(async () => {
  standIn = await startFaultProxy(
    reference.server.url,
    deliveries(({ headers, body }) => ({ headers: withoutStandardWebhooks(headers), body })),
  );
});

afterAll(async () => {
  await standIn?.close();
});

/** `npx secmon-contract` against `baseUrl`, with a JUnit report named after `label`. */
const kit = (baseUrl: string, label: string, extra: string[] = []) =>
  run(
    'npx',
    [
      '--no-install',
      'secmon-contract',
      ...['--base-url', baseUrl, '--api-key', reference.kit.apiKey, '--read-key', reference.kit.readKey!],
      ...['--cases', '4', '--rate-probe', 'skip', '--compressed-retries', '--report', `reports/${label}.xml`],
      ...extra,
    ],
    { cwd: kitProject.dir, env: outsiderEnv(machineNode()), timeoutMs: 180_000 },
  );
const junit = (label: string) => readFileSync(join(kitProject.dir, `reports/${label}.xml`), 'utf8');
const failureMessages = (xml: string) => [...xml.matchAll(/<failure message="([^"]*)"/g)].map((m) => m[1]!);

describe('npx secmon-contract --contract-version', () => {
  it('passes an implementation of 1.0.0 judged as 1.0.0, saying what it did not judge', async () => {
    const result = await kit(standIn.url, 'standin-1.0.0', ['--contract-version', '1.0.0']);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain(`checks of SecMon API 1.0.0 against ${standIn.url}`);
    expect(result.output).toContain('not part of 1.0.0 (--contract-version 1.0.0): it found only what is new in 1.1.0');
    expect(junit('standin-1.0.0')).toMatch(/<testsuites [^>]*failures="0"/);
  }, 200_000);

  it('fails the same implementation judged as the newest version, every failure naming "new in 1.1.0" on the console and in JUnit', async () => {
    const result = await kit(standIn.url, 'standin-newest');
    expect(result.code, result.output).toBe(1);
    const messages = failureMessages(junit('standin-newest'));
    // What 1.1.0 added that a 1.0.0 implementation lacks, each fault once however many checks and
    // webhooks met it (one failing testcase per fault, the others skipped).
    expect(messages.length).toBeGreaterThanOrEqual(2);
    expect(messages.filter((message) => !message.includes('new in 1.1.0'))).toEqual([]);
    // A dashboard's message is the fault's headline: the rule first (the Standard Webhooks headers
    // are what 1.1.0 added), then the version it arrived in.
    expect(messages.some((message) => message.startsWith('rule delivery-headers.'))).toBe(true);
    const headlines = result.stdout.split('\n').filter((line) => / — check "[^"]+" failed/.test(line));
    // A check that met only another operation's fault is a skipped testcase, so the console has at least as many.
    expect(headlines.length).toBeGreaterThanOrEqual(messages.length);
    expect(headlines.filter((line) => !line.includes('new in 1.1.0'))).toEqual([]);
  }, 200_000);

  it('passes the reference server judged as 1.0.0 and as the newest version', async () => {
    for (const extra of [['--contract-version', '1.0.0'], []]) {
      const result = await kit(reference.server.url, `reference-${extra[1] ?? 'newest'}`, extra);
      expect(result.code, result.output).toBe(0);
      expect(result.output).not.toContain('not part of 1.0.0');
    }
  }, 400_000);

  it('--version lists the versions it judges; another version is refused with them', async () => {
    const version = await run('npx', ['--no-install', 'secmon-contract', '--version'], {
      cwd: kitProject.dir,
      env: outsiderEnv(machineNode()),
    });
    expect(version.stdout).toContain('versions of the contract it can judge (--contract-version): 1.0.0, 1.1.0');
    const refused = await kit(reference.server.url, 'refused', ['--contract-version', '0.9.0']);
    expect(refused.code).toBe(2);
    expect(refused.output).toContain('--contract-version must be one of the versions this kit judges: 1.0.0, 1.1.0');
  });
});
