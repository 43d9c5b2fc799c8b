// PostgreSQL misbehaving under a small steady load on two instances, on a cluster of this test's
// own: restarted (connections ended, refused for a moment) and stalled (every process stopped, so
// queries wait for an answer that does not come). Both instances stay up; every answer is 201 or a
// documented 503 with Retry-After, within the configured deadline; /readyz answers within 2 s;
// the log names the cause; nothing acknowledged is lost. A scenario (`npm run bench:scenarios`): its
// deadlines are wall-clock promises a machine busy with other test files cannot keep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, FaultLoad } from '../../scripts/fault-load.ts';
import { type Cluster, startCluster } from '../../scripts/postgres/cluster.ts';
import { stallCluster } from '../../scripts/postgres/stall.ts';
import { sleep } from '../../scripts/wait.ts';
import { READINESS_TIMEOUT_MS } from '../../server/http/database-health.ts';

const STATEMENT_MS = 1000;
const ACQUIRE_MS = 1000;
// A request waits at most for a connection, then for one statement (plus the client's 250 ms slack).
const DEADLINE_MS = ACQUIRE_MS + STATEMENT_MS + 250;
const SERVICE_UNAVAILABLE = 'https://secmon.dev/problems/service-unavailable';

let cluster: Cluster;
let load: FaultLoad;

beforeAll(async () => {
  cluster = await startCluster();
  load = await FaultLoad.start({
    database: await cluster.createDatabase(),
    instances: 2,
    createsPerSecond: 20,
    env: { SECMON_DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS), SECMON_DB_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_MS) },
  });
}, 60_000);
afterAll(async () => {
  await load?.close();
  await cluster?.stop();
});

const failures = (answers: Answer[]) => answers.filter((answer) => answer.status !== 201);
const summary = (answers: Answer[]) => {
  const counts = new Map<string, number>();
  for (const answer of answers)
    counts.set(
      `${answer.status} ${answer.problemType ?? ''}`.trim(),
      (counts.get(`${answer.status} ${answer.problemType ?? ''}`.trim()) ?? 0) + 1,
    );
  return [...counts].map(([key, count]) => `${count}× ${key}`).join(', ');
};

describe('PostgreSQL restarted and stalled under load, two instances', () => {
  it('keeps both instances up, answers 503 service-unavailable within the deadline, and loses nothing acknowledged', async () => {
    load.startLoad();
    await sleep(1000);

    const restartAt = Date.now();
    await cluster.restart();
    await sleep(1500);

    const stallAt = Date.now();
    const resume = stallCluster(cluster.dataDir);
    await sleep(2 * DEADLINE_MS);
    resume();
    const resumedAt = Date.now();
    await sleep(1500);
    await load.stopLoad();

    const { creates, readiness } = load;
    const stalled = creates.filter((answer) => answer.at >= stallAt && answer.at < resumedAt - DEADLINE_MS);
    const slowest = Math.max(...creates.map((answer) => answer.ms));
    const slowestProbe = Math.max(...readiness.map((answer) => answer.ms));
    console.log(
      `database faults: ${creates.length} creates (${summary(creates)}); restart: ${summary(creates.filter((answer) => answer.at >= restartAt && answer.at < stallAt))}; ` +
        `stall: ${summary(stalled)}; slowest create ${Math.round(slowest)} ms (deadline ${DEADLINE_MS} ms), slowest /readyz ${Math.round(slowestProbe)} ms; causes: ${[...new Set(load.causes())].join(', ')}`,
    );

    expect(load.alive()).toEqual([true, true]);
    for (const answer of failures(creates)) {
      expect(answer).toMatchObject({ status: 503, problemType: SERVICE_UNAVAILABLE, retryAfter: '2' });
    }
    // Requests sent while the database was stopped fail, and within the deadline.
    expect(stalled.length).toBeGreaterThan(0);
    expect(stalled.every((answer) => answer.status === 503)).toBe(true);
    expect(slowest).toBeLessThan(DEADLINE_MS + 1000);
    expect(slowestProbe).toBeLessThan(READINESS_TIMEOUT_MS + 500);
    expect(readiness.some((answer) => answer.at >= stallAt && answer.at < resumedAt && answer.status === 503)).toBe(true);
    // Service comes back: the last second's creates succeed on both instances.
    const last = creates.filter((answer) => answer.at >= resumedAt + 500);
    expect(last.length).toBeGreaterThan(0);
    expect(failures(last)).toEqual([]);
    expect(new Set(last.map((answer) => answer.instance))).toEqual(new Set([0, 1]));

    const causes = new Set(load.causes());
    expect([...causes].some((cause) => /query timeout|acquire timeout|statement timeout|connection timed out/.test(cause))).toBe(true);

    const outcome = await load.checkAcknowledged();
    expect(outcome.acknowledged).toBeGreaterThan(0);
    expect(outcome.missingRows).toEqual([]);
    expect(outcome.undelivered).toEqual([]);
  }, 90_000);
});
