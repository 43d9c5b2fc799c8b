// The kit on a target it does not have to itself: other clients writing during the run, and the
// webhooks of others its events will reach named before the first check.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { runKit } from '../src/kit/runner.ts';
import { deliveriesOnly } from './ci-support.ts';
import { type ReferenceTarget, startReferenceTarget, WRITER_KEY } from './reference-target.ts';

describe('other clients and other subscribers on the same target', () => {
  let reference: ReferenceTarget;
  beforeAll(async () => {
    reference = await startReferenceTarget();
  });
  afterAll(() => reference?.server.close());

  const post = (path: string, body: unknown) =>
    fetch(`${reference.server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${WRITER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('a second client writing findings throughout causes no failure; its deliveries on the kit’s webhook are ignored and counted', async () => {
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const created = await post('/v1/findings', {
          title: 'Other client finding',
          severity: 'high',
          device_id: 'dev_01jc4v7d3m9x8k2p5q6r7s8t9v',
        });
        if (created.status === 201) written++;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    try {
      const run = await runKit(reference.kit, {
        only: (planned) => planned.check === 'delivery' || planned.id.startsWith('createFinding'),
      });
      expect(run.results.filter((r) => r.outcome !== 'passed').map((r) => r.error ?? r.reason)).toEqual([]);
      expect(run.foreignDeliveries).toBeGreaterThan(0);
    } finally {
      writing = false;
      await writer;
    }
    expect(written).toBeGreaterThan(10);
  }, 90_000);

  it('names the enabled webhooks of others its events will reach before the first check, and --no-foreign-deliveries refuses to run', async () => {
    const created = await post('/v1/webhooks', {
      url: 'http://127.0.0.1:9/hooks?token=operator-token-123',
      events: ['finding.created', 'device.connected'],
      secret: 'operator-secret-0123456789',
    });
    const { id } = (await created.json()) as { id: string };
    onTestFinished(async () => {
      await fetch(`${reference.server.url}/v1/webhooks/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${WRITER_KEY}` } });
    });
    const said: string[] = [];
    const refused = await runKit(reference.kit, {
      ...deliveriesOnly,
      noForeignDeliveries: true,
      onPreamble: (lines) => said.push(...lines),
    });
    expect(refused.refused).toBe(
      `--no-foreign-deliveries: 1 enabled webhook the kit did not create would get this run's events (${id}); no check was run`,
    );
    expect(refused.results).toEqual([]);
    // The simulator's events go to the kit's webhook only: device.connected is not listed.
    expect(said).toContain(`  ${id}: finding.created`);
    expect(said.join('\n')).not.toMatch(/operator-token|operator-secret|127\.0\.0\.1:9/);
    const run = await runKit(
      { ...reference.kit, events: 'skip' },
      { only: (planned) => planned.id === 'listPolicies (GET /v1/policies) › success-response' },
    );
    expect(run.foreign.webhooks).toEqual([{ id, reached: ['finding.created'] }]);
  }, 60_000);
});
