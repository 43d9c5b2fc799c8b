// `npm run bench:kit-http` — what a request costs the contract kit's side, in CPU: the same
// sequential `GET /v1/policies?limit=1` against the reference server (a child process, in memory, no
// rate limit), sent with `fetch`, with undici's `request()`, and with the kit's own client
// (`createHttpClient().send`, which keeps every exchange for its report). A kit run sends thousands
// of requests (the 429 probe alone 10,000) on the same cores as the implementation it judges.
// Prints a table; it asserts nothing (speed belongs here, not in tests).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { createHttpClient } from '../packages/contract/src/kit/http.ts';
import { freePort } from './free-port.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const MAIN = fileURLToPath(new URL('../server/main.ts', import.meta.url));
const HEADERS = { authorization: 'Bearer dev-reader', accept: 'application/json, application/problem+json' };

// Its own child rather than scripts/server-process.ts's: that one reads the server's log line per
// request in this process, which would count as the client's CPU (548 against 340 µs for fetch).
const port = await freePort();
const server = spawn(process.execPath, [MAIN, '--port', String(port), '--db', ':memory:', '--rate-limit', '0'], {
  stdio: 'ignore',
  env: { ...process.env, SECMON_MODE: 'development' },
});
const base = `http://127.0.0.1:${port}`;
const url = `${base}/v1/policies?limit=1`;
for (const started = Date.now(); ; ) {
  try {
    await (await fetch(url, { headers: HEADERS })).arrayBuffer();
    break;
  } catch (error) {
    if (Date.now() - started > 60_000) throw error;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const kit = createHttpClient({ baseUrl: base, apiKey: 'dev-admin', readKey: 'dev-reader' });
const clients: Record<string, () => Promise<unknown>> = {
  fetch: async () => (await fetch(url, { headers: HEADERS, redirect: 'manual', signal: AbortSignal.timeout(30_000) })).text(),
  'undici request()': async () => (await request(url, { headers: HEADERS, signal: AbortSignal.timeout(30_000) })).body.text(),
  'the kit (send)': () => kit.send({ method: 'GET', path: '/v1/policies', query: { limit: '1' } }),
};

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const rows: Record<string, string | number>[] = [];
// The first round warms every client up (JIT, connections); the second is the one reported.
for (const round of [1, 2]) {
  for (const [client, send] of Object.entries(clients)) {
    const cpu = cpuMs();
    const started = performance.now();
    for (let i = 0; i < REQUESTS; i++) await send();
    if (round === 1) continue;
    rows.push({
      client,
      'client CPU µs/request': Math.round(((cpuMs() - cpu) / REQUESTS) * 1000),
      'wall µs/request': Math.round(((performance.now() - started) / REQUESTS) * 1000),
    });
    process.stderr.write(`${client} done\n`);
  }
}
const fetchCpu = Number(rows[0]!['client CPU µs/request']);
for (const row of rows) row['CPU vs fetch'] = (Number(row['client CPU µs/request']) / fetchCpu).toFixed(2);
console.log(`${REQUESTS} sequential requests per client, second of two rounds, node ${process.version}`);
console.table(rows);
server.kill('SIGTERM');
