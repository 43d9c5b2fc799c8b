// No false alarms where the evidence comes later or another way than the kit's own simulator run
// shows it: events raised by a command that carries no ids, a fixed quota window whose `t` is
// rounded up to whole seconds, a lost acknowledgement, and deliveries delayed and reordered. Each
// runs against the reference server and against a stand-in (the reference server behind a proxy
// that makes the variation), and both pass. The first three situations run side by side, each on
// servers of its own (they wait mostly on deliveries and windows); the backlog and the quota window,
// whose evidence depends on how fast the machine answers, run alone after them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../server/config.ts';
import type { KitOptions } from '../src/kit/context.ts';
import type { CheckName } from '../src/kit/registry.ts';
import { runKit } from '../src/kit/runner.ts';
import { type Fault, startFaultProxy } from './fault-proxy.ts';
import {
  broadcastingCommand,
  delayedDeliveries,
  failedAuthWindows,
  fixedWindows,
  lostAcknowledgements,
  withoutSimulator,
} from './legal-variations.ts';
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

describe.concurrent('a trigger command that carries no ids and names no webhook', () => {
  let reference: ReferenceTarget;
  let scratch: string;
  let command: string;
  beforeAll(async () => {
    reference = await startReferenceTarget();
    scratch = mkdtempSync(join(tmpdir(), 'kit-broadcast-'));
    command = broadcastingCommand(scratch, reference.server.url);
  });
  afterAll(async () => {
    await reference?.server.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('passes model-sequences on the reference server and on a stand-in without the simulator', async () => {
    expect(await failures({ ...reference.kit, triggerCommand: command, seed: 7 }, ['model-sequences'])).toEqual([]);
    const standIn = await behind(reference, withoutSimulator, (url) =>
      failures({ ...reference.kit, baseUrl: url, triggerCommand: command, seed: 7 }, ['model-sequences']),
    );
    expect(standIn).toEqual([]);
  }, 120_000);
});

describe.concurrent("an address's failed-authentication window that ends during the kit's probe", () => {
  it('passes failed-auth-counting on a stand-in whose 2-second windows reset while the failures are sent; one kind left uncounted still fails', async () => {
    const target = await startReferenceTarget();
    try {
      // Answers 150 ms apart: the first window ends after about five failures, and the count starts again.
      const resetting = await behind(target, failedAuthWindows({ limit: 8, seconds: 2, paceMs: 150 }), (url) =>
        failures({ ...target.kit, baseUrl: url, events: 'skip' }, ['failed-auth-counting']),
      );
      expect(resetting).toEqual([]);
      const uncounted = await behind(target, failedAuthWindows({ limit: 8, seconds: 60, uncounted: /^Basic /i }), (url) =>
        failures({ ...target.kit, baseUrl: url, events: 'skip' }, ['failed-auth-counting']),
      );
      expect(uncounted).toEqual([
        expect.stringMatching(/rule rate-limits\.5: \d+ failed authentications of 4 kinds in turn were answered 401 within the window/),
      ]);
    } finally {
      await target.server.close();
    }
  }, 60_000);
});

describe.concurrent('a lost acknowledgement', () => {
  it('passes delivery-retry on the reference server and on a stand-in whose proxy answers 503 for the first 2xx of each delivery', async () => {
    // The second retry comes about 6 s after the first, later than the kit reads last_delivery for.
    const target = await startReferenceTarget(undefined, 0.02);
    try {
      const options = { ...target.kit, skipRetryTiming: 'compressed schedule' };
      expect(await failures(options, ['delivery-retry'])).toEqual([]);
      const standIn = await behind(target, lostAcknowledgements(), (url) => failures({ ...options, baseUrl: url }, ['delivery-retry']));
      expect(standIn).toEqual([]);
    } finally {
      await target.server.close();
    }
  }, 60_000);
});

/** Creates a finding every 250 ms until stopped: a backlog of finding.created for every subscriber. */
function backlog(target: ReferenceTarget): { stop(): Promise<number> } {
  let writing = true;
  let created = 0;
  const loop = (async () => {
    while (writing) {
      await fetch(`${target.server.url}/v1/findings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${WRITER_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `backlog ${created++}`, severity: 'low', device_id: `dev_0${'a'.repeat(25)}` }),
      });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    stop: async () => {
      writing = false;
      await loop;
      return created;
    },
  };
}

describe('deliveries delayed and reordered behind a backlog', () => {
  it('passes delivery-retry, the documented first wait judged, on the reference server and on a stand-in that delays every delivery', async () => {
    // One slot a webhook: the backlog of new findings outgrows it, and the retry must still keep its wait.
    const target = await startReferenceTarget(undefined, 1, {
      delivery: { ...testConfig().delivery, retryScale: 1, perWebhookConcurrency: 1 },
    });
    try {
      for (const standIn of [false, true]) {
        const pressure = backlog(target);
        const verdicts = standIn
          ? await behind(target, delayedDeliveries(), (url) => failures({ ...target.kit, baseUrl: url }, ['delivery-retry']))
          : await failures(target.kit, ['delivery-retry']);
        expect(await pressure.stop()).toBeGreaterThan(20);
        expect(verdicts).toEqual([]);
      }
    } finally {
      await target.server.close();
    }
  }, 120_000);

  it('still fails a first retry twice as late as the document says', async () => {
    const slow = await startReferenceTarget(undefined, 2);
    try {
      expect(await failures(slow.kit, ['delivery-retry'])).toEqual([
        expect.stringMatching(
          // The allowance's upper end grows with the delays the run measured (a loaded machine's more),
          // and then the report says which.
          /rule delivery-and-retries\.4: the first retry came \d+\.\d s after the first attempt; the document says about 5\.0 s ±20 % \(the kit allows 4\.0 s to \d+\.\d s(, deliveries to this webhook arriving up to \d+\.\d s after their webhook-timestamp)?\)/,
        ),
      ]);
    } finally {
      await slow.server.close();
    }
  }, 60_000);
});

describe('a fixed quota window per key whose end the kit knows only to the second', () => {
  it('passes the 429 probe on the reference server and on a stand-in whose window ends during the probe', async () => {
    const limited = await startReferenceTarget(40);
    // The stand-in counts on its own: the server behind it does not limit the kit.
    const unlimited = await startReferenceTarget();
    try {
      expect(await failures({ ...limited.kit, events: 'skip' }, ['rate-limit-429'])).toEqual([]);
      // The probe's first answer says t=1: the window may end at once, and it does before the quota is used.
      const standIn = await behind(unlimited, fixedWindows(40, 4, 400, 120), (url) =>
        failures({ ...unlimited.kit, baseUrl: url, events: 'skip' }, ['rate-limit-429']),
      );
      expect(standIn).toEqual([]);
    } finally {
      await limited.server.close();
      await unlimited.server.close();
    }
  }, 60_000);

  it('still fails a window that lets one request past the quota while its t says it has seconds to run', async () => {
    const unlimited = await startReferenceTarget();
    try {
      // The key's first window lasts 10 s from the kit's first request: the leak is seen only if the
      // 41 requests of the probe come before it ends, and a loaded machine once took more than 3 s.
      const verdicts = await behind(unlimited, fixedWindows(40, 4, 10_000, 0, 1), (url) =>
        failures({ ...unlimited.kit, baseUrl: url, events: 'skip' }, ['rate-limit-429']),
      );
      expect(verdicts).toEqual([
        expect.stringMatching(
          /rule rate-limits\.4: expected 429 \(request \d+ after RateLimit said r=\d+, answered \d+ ms before that window could end by its t\), got 200/,
        ),
      ]);
    } finally {
      await unlimited.server.close();
    }
  });
});
