// `npm run bench:content-types` — what new spellings of a request's Content-Type cost the server, in
// production mode and in development mode (which also validates responses, as every test server
// does): its CPU per request and its memory, for `POST /v1/findings` sent 400 times with one
// spelling, then 400 times with a new spelling each (`application/json; v=<n>`, a parameter the
// media type allows and the server ignores). With the validator's compiled schemas kept per
// operation and matched media type the two rows cost alike; kept per spelling, as
// express-openapi-validator 5.6.2 is published, each new spelling compiles the operation's schemas
// again and keeps them. The server runs in a child process; its CPU and memory are read from /proc.
// Prints a table; it asserts nothing (speed belongs here, not in tests).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { freePort } from './free-port.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const MAIN = fileURLToPath(new URL('../server/main.ts', import.meta.url));
const KEY = 'bench-key-0123456789';
const BODY = (n: number) => JSON.stringify({ title: `bench finding ${n}`, severity: 'high', device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2' });

/** The server's CPU in ms (user + system) and resident memory in MiB, from /proc. */
function usageOf(pid: number): { cpuMs: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    cpuMs: ((Number(stat[11]) + Number(stat[12])) * 1000) / 100,
    rssMiB: Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024,
  };
}

const rows: Record<string, string | number>[] = [];
for (const mode of ['development', 'production'] as const) {
  const port = await freePort();
  const server = spawn(process.execPath, [MAIN, '--port', String(port), '--db', ':memory:', '--rate-limit', '0'], {
    stdio: 'ignore',
    env: { ...process.env, SECMON_MODE: mode, SECMON_API_KEYS: `${KEY}:read+write` },
  });
  const url = `http://127.0.0.1:${port}/v1/findings`;
  let sent = 0;
  const create = async (contentType: string): Promise<number> => {
    const answer = await request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': contentType },
      body: BODY(sent++),
    });
    await answer.body.text();
    return answer.statusCode;
  };
  for (const started = Date.now(); ; ) {
    try {
      await create('application/json');
      break;
    } catch (error) {
      if (Date.now() - started > 60_000) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  // Warm-up: the operation's validators compiled once, the JIT settled.
  for (let i = 0; i < 200; i++) await create('application/json');
  for (const [label, contentType] of [
    ['one spelling', () => 'application/json'],
    ['a new spelling each', (i: number) => `application/json; v=${i}`],
  ] as const) {
    const before = usageOf(server.pid!);
    const statuses = new Map<number, number>();
    for (let i = 0; i < REQUESTS; i++) {
      const status = await create(contentType(i));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const after = usageOf(server.pid!);
    rows.push({
      mode,
      'Content-Type': label,
      'server CPU µs/request': Math.round(((after.cpuMs - before.cpuMs) / REQUESTS) * 1000),
      'server memory growth MiB': +(after.rssMiB - before.rssMiB).toFixed(1),
      answers: [...statuses].map(([status, count]) => `${count}× ${status}`).join(', '),
    });
    process.stderr.write(`${mode}, ${label}: done\n`);
  }
  server.kill('SIGTERM');
}
console.log(`${REQUESTS} POST /v1/findings per row, node ${process.version}`);
console.table(rows);
