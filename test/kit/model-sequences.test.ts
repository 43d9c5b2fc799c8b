// The model-based sequences against the reference server: seeded random operation sequences,
// every answer and delivery held against the executable model, pass on a conforming target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKit } from '../contract/kit/runner.ts';
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
