// The kit's waits for deliveries a target owes follow its pace: a target still sending the first
// attempts of other deliveries (a backlog it works through) is given the time it visibly uses, up to
// PACED_WAIT_LIMIT times the time-out; a wait for deliveries that must not come stays fixed.
import { afterEach, describe, expect, it } from 'vitest';
import { PACED_WAIT_LIMIT, type Receiver, startReceiver } from '../src/kit/receiver.ts';

let receiver: Receiver | undefined;
afterEach(() => receiver?.close());

const post = (url: string, id: string) =>
  fetch(url, { method: 'POST', headers: { 'x-service-delivery': id }, body: '{}' }).then((answer) => answer.arrayBuffer());

/** Sends a first attempt (a new id) to `/other` every `everyMs` until stopped; returns the stopper. */
function backlog(url: string, everyMs: number, resend = false): () => void {
  let n = 0;
  const timer = setInterval(() => void post(`${url}/other`, resend ? 'one-delivery' : `backlog-${n++}`), everyMs);
  return () => clearInterval(timer);
}

describe('a paced wait', () => {
  const TIMEOUT = 1_000;
  const awaited = (r: Receiver) => () => r.deliveries.some((d) => d.path === '/awaited');

  it('outlasts its time-out while first attempts of other deliveries keep coming, and meets a delivery that comes after it', async () => {
    receiver = await startReceiver({ host: '127.0.0.1', port: 0 });
    const stop = backlog(receiver.url, 100);
    setTimeout(() => void post(`${receiver!.url}/awaited`, 'awaited'), 2_000);
    try {
      const [fixed, paced] = await Promise.all([
        receiver.waitUntil(awaited(receiver), TIMEOUT, 'fixed'),
        receiver.waitUntil(awaited(receiver), TIMEOUT, 'paced'),
      ]);
      expect(fixed).toMatchObject({ met: false, pacedMs: 0 });
      expect(paced.met).toBe(true);
      expect(paced.waitedMs).toBeGreaterThanOrEqual(1_900);
      expect(paced.pacedMs).toBeGreaterThan(0);
    } finally {
      stop();
    }
  });

  it('ends one time-out after the last first attempt, and retries of one delivery do not hold it', async () => {
    receiver = await startReceiver({ host: '127.0.0.1', port: 0 });
    await post(`${receiver.url}/other`, 'one-delivery');
    const stop = backlog(receiver.url, 100, true);
    try {
      const waited = await receiver.waitUntil(awaited(receiver), TIMEOUT, 'paced');
      expect(waited.met).toBe(false);
      expect(waited.waitedMs).toBeLessThan(TIMEOUT + 900);
      expect(waited.pacedMs).toBe(0);
    } finally {
      stop();
    }
  });

  it(`ends at ${PACED_WAIT_LIMIT} times its time-out however long the target keeps sending`, async () => {
    receiver = await startReceiver({ host: '127.0.0.1', port: 0 });
    const stop = backlog(receiver.url, 100);
    try {
      const waited = await receiver.waitUntil(awaited(receiver), 500, 'paced');
      expect(waited.met).toBe(false);
      expect(waited.waitedMs).toBeGreaterThanOrEqual(PACED_WAIT_LIMIT * 500 - 5);
      expect(waited.waitedMs).toBeLessThan(PACED_WAIT_LIMIT * 500 + 1_000);
      expect(waited.pacedMs).toBe((PACED_WAIT_LIMIT - 1) * 500);
    } finally {
      stop();
    }
  });
});
