// The per-endpoint rules on their own: the limit that halves and grows back, the circuit that
// opens after BREAK_AFTER failures and half-opens for a probe, the reserve and the failing cap.
import { describe, expect, it } from 'vitest';
import { BREAK_AFTER, type DueCandidate, EndpointScheduler, healthOf } from '../../server/webhooks/endpoints.ts';

const NOW = 1_000_000;
const fresh = (id: string): DueCandidate => ({ webhookId: id, attempts: 0 });
const retry = (id: string): DueCandidate => ({ webhookId: id, attempts: 1 });
const scheduler = (concurrency = 16, maxPerEndpoint = 8) => new EndpointScheduler({ concurrency, maxPerEndpoint, probeAfterMs: 5000 });

function fail(endpoints: EndpointScheduler, id: string, times: number, at = NOW): void {
  for (let index = 0; index < times; index++) {
    endpoints.started(id);
    endpoints.finished(id, 'failed', at);
  }
}

describe('EndpointScheduler', () => {
  it('halves an endpoint’s limit on each failure and adds one per answer, up to the maximum', () => {
    const endpoints = scheduler();
    expect(endpoints.describe('whk_a').limit).toBe(8);
    fail(endpoints, 'whk_a', 2);
    expect(endpoints.describe('whk_a')).toEqual({ limit: 2, inFlight: 0, open: false });
    endpoints.started('whk_a');
    endpoints.finished('whk_a', 'answered', NOW);
    expect(endpoints.describe('whk_a').limit).toBe(3);
    for (let index = 0; index < 10; index++) {
      endpoints.started('whk_a');
      endpoints.finished('whk_a', 'answered', NOW);
    }
    expect(endpoints.describe('whk_a').limit).toBe(8);
  });

  it(`opens after ${BREAK_AFTER} failures in a row: retries one at a time, a new delivery only after the probe pause`, () => {
    const endpoints = scheduler();
    expect(endpoints.finished('whk_a', 'failed', NOW)).toBeNull();
    fail(endpoints, 'whk_a', BREAK_AFTER - 1);
    endpoints.started('whk_a');
    expect(endpoints.finished('whk_a', 'failed', NOW)).toBe('opened');
    expect(endpoints.describe('whk_a').open).toBe(true);

    const plan = endpoints.plan(NOW + 1);
    expect([...plan.retriesOnly]).toEqual(['whk_a']);
    expect(plan.choose([fresh('whk_a'), retry('whk_a'), retry('whk_a')])).toEqual([retry('whk_a')]);
    endpoints.started('whk_a');
    expect([...endpoints.plan(NOW + 1).blocked]).toEqual(['whk_a']);
    endpoints.finished('whk_a', 'failed', NOW + 2);

    // The pause doubles with each failure past BREAK_AFTER: 2 × 5 s after the last one.
    expect(endpoints.nextProbeAt()).toBe(NOW + 2 + 10_000);
    expect(endpoints.plan(NOW + 10_001).choose([fresh('whk_a')])).toEqual([]);
    expect(endpoints.plan(NOW + 10_002).choose([fresh('whk_a'), fresh('whk_a')])).toEqual([fresh('whk_a')]);
  });

  it('closes on an answer and starts again from one attempt at a time', () => {
    const endpoints = scheduler();
    fail(endpoints, 'whk_a', BREAK_AFTER);
    endpoints.started('whk_a');
    expect(endpoints.finished('whk_a', 'answered', NOW)).toBe('closed');
    expect(endpoints.describe('whk_a')).toEqual({ limit: 1, inFlight: 0, open: false });
    expect(endpoints.plan(NOW).choose([fresh('whk_a'), fresh('whk_a')])).toHaveLength(1);
  });

  it('gives every webhook its first slot before a second, and keeps a quarter of the slots for first slots', () => {
    const endpoints = scheduler(8, 8);
    const chosen = endpoints
      .plan(NOW)
      .choose([fresh('a'), fresh('a'), fresh('a'), fresh('a'), fresh('a'), fresh('a'), fresh('b'), fresh('c')]);
    // 8 slots, reserve 2: a, b, c first; then a's extras while more than 2 would stay free.
    expect(chosen.map((candidate) => candidate.webhookId)).toEqual(['a', 'a', 'a', 'a', 'b', 'c']);
  });

  it('lets failing endpoints hold at most three quarters of the slots together', () => {
    const endpoints = scheduler(8, 8);
    const dead = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8'];
    for (const id of dead) fail(endpoints, id, 1);
    const chosen = endpoints.plan(NOW).choose([...dead.map(retry), fresh('healthy')]);
    expect(chosen.map((candidate) => candidate.webhookId)).toEqual(['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'healthy']);
  });

  it('judges an attempt: no answer, 5xx and 429 fail; other answers count; a refused URL says nothing', () => {
    expect(healthOf({ kind: 'delivered', status: 204 })).toBe('answered');
    expect(healthOf({ kind: 'gone', status: 410 })).toBe('answered');
    expect(healthOf({ kind: 'retry', status: 400, cause: 'http', error: 'HTTP 400', dueAt: 0 })).toBe('answered');
    expect(healthOf({ kind: 'retry', status: 503, cause: 'http', error: 'HTTP 503', dueAt: 0 })).toBe('failed');
    expect(healthOf({ kind: 'retry', status: 429, cause: 'http', error: 'HTTP 429', dueAt: 0 })).toBe('failed');
    expect(healthOf({ kind: 'retry', status: null, cause: 'timeout', error: 'no answer within 2000 ms', dueAt: 0 })).toBe('failed');
    expect(healthOf({ kind: 'exhausted', status: null, cause: 'refused', error: 'refused: private address' })).toBe('unknown');
  });
});
