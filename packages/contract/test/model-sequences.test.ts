// The model-based sequences against the reference server: seeded random operation sequences,
// every answer and delivery held against the executable model, pass on a conforming target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKit } from '../src/kit/runner.ts';
import { type ReferenceTarget, startReferenceTarget } from './reference-target.ts';

let reference: ReferenceTarget;
beforeAll(async () => {
  reference = await startReferenceTarget();
});
afterAll(async () => {
  await reference?.server.close();
});

describe('model-sequences on the reference server', () => {
  it('runs the seeded sequences and finds no difference from the model', async () => {
    const run = await runKit(reference.kit, { only: (planned) => planned.check === 'model-sequences' });
    expect(run.results.map((r) => [r.check, r.outcome, r.error ?? ''])).toEqual([['model-sequences', 'passed', '']]);
    expect(run.results[0]!.note).toMatch(/^12 sequences, \d+ requests/);
  }, 120_000);
});

describe('model-sequences with another client writing throughout', () => {
  it('judges only the kit’s own resources: another writer’s creates, replaces and deletes raise no false alarm', async () => {
    const headers = { authorization: `Bearer ${reference.kit.apiKey}`, 'content-type': 'application/json' };
    let writing = true;
    let writes = 0;
    const other = (async () => {
      while (writing) {
        const created = await fetch(`${reference.server.url}/v1/policies`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `other ${writes}`, severity: 'high', enabled: writes % 2 === 0 }),
        });
        const { id } = (await created.json()) as { id: string };
        await fetch(`${reference.server.url}/v1/findings`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ title: 'other', severity: 'low', device_id: 'dev_0aaaaaaaaaaaaaaaaaaaaaaaaa', policy_id: null }),
        });
        const item = `${reference.server.url}/v1/policies/${id}`;
        if (writes % 3 === 0) await fetch(item, { method: 'DELETE', headers });
        else await fetch(item, { method: 'PUT', headers, body: JSON.stringify({ name: `other ${writes} again`, severity: 'low' }) });
        writes++;
      }
    })();
    try {
      const run = await runKit(reference.kit, { only: (planned) => planned.check === 'model-sequences' });
      expect(run.results.map((r) => [r.check, r.outcome, r.error ?? ''])).toEqual([['model-sequences', 'passed', '']]);
    } finally {
      writing = false;
      await other;
    }
    expect(writes).toBeGreaterThan(10);
  }, 120_000);
});
