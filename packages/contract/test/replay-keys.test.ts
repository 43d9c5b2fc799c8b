// A replay's Idempotency-Keys, run twice in a row against one target that keeps every key's first
// answer as the document says (a retry with the same body gets it again, another body 409): each
// run gives the same verdict, sends keys of its own (never the run's), and a pair of requests that
// shared a key in the run shares one new key.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../src/kit/http.ts';
import { reproduction } from '../src/kit/repro.ts';
import type { Symptom } from '../src/kit/repro-judge.ts';
import { listening, posted, replayBench, runReplay } from './replay-run.ts';

const HEADLINE = 'rule createFinding.1: the answer lacks updated_at';

// A policy made without a key (as the kit's fixtures are), so each run of the replay makes a new one,
// then findings referencing it under keys.
const POLICY = posted('/v1/policies', { name: 'kit-policy' }, 201, { id: 'pol_run0000001', name: 'kit-policy' });
const finding = (title: string, key: string, status: number, json: unknown) =>
  posted('/v1/findings', { title, policy_id: 'pol_run0000001' }, status, json, { 'Idempotency-Key': key });
const RUN_KEY = 'run-key-7d1f0c2e-5b8a-4e39-a0c4-2f6e9b1d3a57';

interface Target {
  url: string;
  /** The Idempotency-Key of each create it got, in order. */
  keys: (string | undefined)[];
  server: Server;
}

/**
 * Policies and findings under idempotency keys; `faulty` answers a finding without `updated_at`, and
 * `sameKeySameAnswer` replays a key's first answer whatever the body (instead of 409).
 */
async function startTarget(fault: { withoutUpdatedAt?: boolean; sameKeySameAnswer?: boolean } = {}): Promise<Target> {
  const stored = new Map<string, { body: string; answer: string }>();
  const target: Target = { url: '', keys: [], server: createServer() };
  let made = 0;
  target.server.on('request', async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const key = req.headers['idempotency-key'] as string | undefined;
    target.keys.push(key);
    const json = { 'content-type': 'application/json' };
    const first = key === undefined ? undefined : stored.get(`${req.url} ${key}`);
    if (first && (first.body === text || fault.sameKeySameAnswer)) {
      res.writeHead(201, { ...json, 'idempotent-replayed': 'true' }).end(first.answer);
      return;
    }
    if (first) {
      res
        .writeHead(409, { 'content-type': 'application/problem+json' })
        .end(JSON.stringify({ status: 409, type: 'idempotency-key-reused' }));
      return;
    }
    made++;
    const body = JSON.parse(text) as Record<string, unknown>;
    const item =
      req.url === '/v1/policies'
        ? { id: `pol_${String(made).padStart(10, '0')}`, ...body }
        : {
            id: `fnd_${String(made).padStart(10, '0')}`,
            ...body,
            ...(fault.withoutUpdatedAt ? {} : { updated_at: '2026-01-01T00:00:00Z' }),
          };
    const answer = JSON.stringify(item);
    if (key !== undefined) stored.set(`${req.url} ${key}`, { body: text, answer });
    res.writeHead(201, json).end(answer);
  });
  target.url = await listening(target.server);
  return target;
}

const { scratch, targets } = replayBench<Target>('replay-keys-');

/** The replay of `exchanges` judged by `symptom`, run alone twice against one target made by `start`. */
async function twice(exchanges: Exchange[], symptom: Symptom, start: () => Promise<Target>) {
  const { script, runner, http } = reproduction(exchanges, {
    title: 'createFinding › replay',
    report: 'the report',
    baseUrl: 'http://run.example',
    verdict: { symptom, headline: HEADLINE },
  });
  const file = join(scratch, `replay-${Date.now()}-${targets.length}.sh`);
  writeFileSync(file, script);
  const target = await start();
  targets.push(target);
  const runs = [];
  for (const _ of [1, 2]) runs.push(await runReplay(file, runner, target.url, { apiKey: 'key-from-the-environment' }));
  return {
    runs: runs.map(({ code, stdout }) => ({ code, said: /^(reproduced|not reproduced)/m.exec(stdout)?.[1] })),
    target,
    script,
    http,
  };
}

describe('a replay sends Idempotency-Keys of its own at every run', () => {
  // The faulty finding answer, missing updated_at; keyed, and with a body naming a policy each run makes anew.
  const missing: Symptom = { status: 201, missing: { at: '', name: 'updated_at' } };
  const run = [POLICY, finding('kit-finding', RUN_KEY, 201, { id: 'fnd_run0000001', title: 'kit-finding' })];

  it('run twice against a faulty target: reproduced both times (exit 1)', async () => {
    const { runs, target } = await twice(run, missing, () => startTarget({ withoutUpdatedAt: true }));
    expect(runs).toEqual([
      { code: 1, said: 'reproduced' },
      { code: 1, said: 'reproduced' },
    ]);
    const [first, second] = [target.keys[1], target.keys[3]];
    expect(first).toMatch(/^kit-replay-[0-9a-f-]{36}$/);
    expect(second).toMatch(/^kit-replay-[0-9a-f-]{36}$/);
    expect(second).not.toBe(first);
  });

  it('run twice against a correct target: not reproduced both times (exit 0)', async () => {
    const { runs } = await twice(run, missing, () => startTarget());
    expect(runs).toEqual([
      { code: 0, said: 'not reproduced' },
      { code: 0, said: 'not reproduced' },
    ]);
  });

  it("never sends the run's key, in either file", async () => {
    const { target, script, http } = await twice(run, missing, () => startTarget({ withoutUpdatedAt: true }));
    expect(target.keys).not.toContain(RUN_KEY);
    expect(script).not.toContain(RUN_KEY);
    expect(http).not.toContain(RUN_KEY);
    expect(http).toMatch(/^< \{%\n {2}client\.global\.set\("IDEMPOTENCY_KEY_1", "kit-replay-" \+ \$random\.uuid\);\n%\}\nPOST /m);
    expect(http).toContain('Idempotency-Key: {{IDEMPOTENCY_KEY_1}}');
  });

  it('a key reused with another body (the rule is the reuse) is sent as a pair sharing one new key, at each run', async () => {
    const pair = [
      POLICY,
      finding('kit-finding', RUN_KEY, 201, { id: 'fnd_run0000001', title: 'kit-finding' }),
      finding('kit-other-finding', RUN_KEY, 201, { id: 'fnd_run0000001', title: 'kit-finding' }),
    ];
    const replayed: Symptom = { status: 201, keys: ['id', 'policy_id', 'title'] };
    const faulty = await twice(pair, replayed, () => startTarget({ sameKeySameAnswer: true, withoutUpdatedAt: true }));
    expect(faulty.runs).toEqual([
      { code: 1, said: 'reproduced' },
      { code: 1, said: 'reproduced' },
    ]);
    const [, a1, b1, , a2, b2] = faulty.target.keys;
    expect(a1).toMatch(/^kit-replay-/);
    expect(b1).toBe(a1);
    expect(b2).toBe(a2);
    expect(a2).not.toBe(a1);
    const correct = await twice(pair, replayed, () => startTarget({ withoutUpdatedAt: true }));
    expect(correct.runs).toEqual([
      { code: 0, said: 'not reproduced' },
      { code: 0, said: 'not reproduced' },
    ]);
  });
});

describe('a failure with no request leading to it', () => {
  it('has a replay that says it cannot replay it and exits 2, neither reproduced nor not', async () => {
    const { script, http } = reproduction([], { title: 'coverage', report: 'what the kit reported', baseUrl: 'http://run.example' });
    const file = join(scratch, 'nothing.sh');
    writeFileSync(file, script);
    const ran = await runReplay(file, 'sh', 'http://127.0.0.1:9', { apiKey: 'k', readKey: 'r' });
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(http).toMatch(/^# not replayable: the run recorded no request that led to this failure/m);
  });
});
