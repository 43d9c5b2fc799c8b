// `npm run bench:msw` — answers per second of the three frontend mocks on this machine, as a
// frontend's test code sees them: the same fetch loop (10 requests in flight, for BENCH_DURATION
// seconds after a one-second warm-up) against secmon-msw's handlers in this process (msw/node,
// stateless and stateful), the Prism mock (`secmon-mock`, with its contract shim) and the
// stateful mock (the reference server in memory), each server in a child process (`node packages/mock/src/main.ts`);
// and the handlers alone through msw's getResponse, which separates their cost from msw/node's.
// Prints a table; it asserts nothing (speed belongs here, not in tests).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createSecmonMsw } from '../packages/msw/src/index.ts';
import { freePort } from './free-port.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION ?? 3) * 1000;
const IN_FLIGHT = 10;
const MAIN = fileURLToPath(new URL('../packages/mock/src/main.ts', import.meta.url));
const HEADERS = { authorization: 'Bearer bench-key', 'content-type': 'application/json' };
const READ_ID = 'fnd_01jbz3k7q2w9x8v6t5r4p3n2m1';
const CREATE = JSON.stringify({ title: 'SSH root login enabled', severity: 'high', device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2' });
const INVALID = JSON.stringify({ title: '', severity: 'urgent', device_id: 'nope', colour: 'red' });

type Op = 'list' | 'read' | 'create' | 'invalid';
const OPS: Record<Op, { path: string; init: RequestInit; expected: number }> = {
  list: { path: '/v1/findings', init: { headers: HEADERS }, expected: 200 },
  read: { path: `/v1/findings/${READ_ID}`, init: { headers: HEADERS }, expected: 200 },
  create: { path: '/v1/findings', init: { method: 'POST', headers: HEADERS, body: CREATE }, expected: 201 },
  invalid: { path: '/v1/findings', init: { method: 'POST', headers: HEADERS, body: INVALID }, expected: 400 },
};

type Send = (url: string, init: RequestInit) => Promise<Response>;

async function rate(base: string, op: Op, durationMs: number, send: Send): Promise<{ rps: number; wrong: number }> {
  const { path, init, expected } = OPS[op];
  let answered = 0;
  let wrong = 0;
  const until = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < until) {
        const response = await send(base + path, init);
        await response.arrayBuffer();
        if (response.status === expected) answered++;
        else wrong++;
      }
    }),
  );
  return { rps: Math.round(answered / ((performance.now() - started) / 1000)), wrong };
}

async function measure(target: string, base: string, send: Send = fetch) {
  const row: Record<string, string | number> = { target };
  for (const op of Object.keys(OPS) as Op[]) {
    await rate(base, op, 1000, send);
    const { rps, wrong } = await rate(base, op, DURATION_MS, send);
    row[`${op} /s`] = wrong > 0 ? `${rps} (${wrong} wrong)` : rps;
  }
  process.stderr.write(`${target} done\n`);
  return row;
}

async function child(flags: string[]): Promise<{ base: string; process: ChildProcess }> {
  const port = await freePort();
  // No rate limit: the loop would otherwise measure 429s.
  const process_ = spawn(process.execPath, [MAIN, ...flags, '--port', String(port)], {
    stdio: 'ignore',
    env: { ...process.env, SECMON_RATE_LIMIT: '0' },
  });
  const base = `http://127.0.0.1:${port}`;
  for (const started = performance.now(); performance.now() - started < 60_000; ) {
    try {
      await (await fetch(`${base}/v1/findings`, { headers: HEADERS })).arrayBuffer();
      return { base, process: process_ };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  process_.kill('SIGKILL');
  throw new Error(`node packages/mock/src/main.ts ${flags.join(' ')} did not answer`);
}

async function stop(running: ChildProcess) {
  running.kill('SIGTERM');
  await once(running, 'exit');
}

const rows: Record<string, string | number>[] = [];
// The servers first: once msw/node listens, it intercepts every fetch of this process.
for (const [target, flags] of [
  ['secmon-mock (Prism + shim), child process', []],
  ['stateful mock (reference server), child process', ['--stateful']],
] as const) {
  const running = await child([...flags]);
  try {
    rows.push(await measure(target, running.base));
  } finally {
    await stop(running.process);
  }
}
// One msw/node server for both modes (one interception of fetch), each mode on its own origin.
const modes = [false, true].map((stateful) => ({ stateful, base: `https://msw-${stateful ? 'stateful' : 'stateless'}.bench` }));
const server = setupServer(...modes.flatMap(({ stateful, base }) => createSecmonMsw({ baseUrl: base, stateful }).handlers));
server.listen({ onUnhandledFrame: 'error' });
try {
  for (const { stateful, base } of modes) rows.push(await measure(`secmon-msw ${stateful ? 'stateful' : 'stateless'}, in process`, base));
} finally {
  server.close();
}
// The handlers' own cost, without msw/node's interception of fetch: msw's getResponse.
for (const { stateful, base } of modes) {
  const handlers = createSecmonMsw({ baseUrl: base, stateful }).handlers;
  const send: Send = async (url, init) => (await getResponse(handlers, new Request(url, init)))!;
  rows.push(await measure(`secmon-msw ${stateful ? 'stateful' : 'stateless'}, getResponse (no fetch)`, base, send));
}
console.table(rows);
