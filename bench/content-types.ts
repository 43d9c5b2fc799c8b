// `npm run bench:content-types` — what new spellings of a request's Content-Type cost the server, in
// production mode and in development mode (which also validates responses, as every test server
// does): its CPU per request and its memory, for `POST /v1/findings` sent 400 times with one
// spelling, then 400 times with a new spelling each (`application/json; v=<n>`, a parameter the
// media type allows and the server ignores). With the validator's compiled schemas kept per
// operation and matched media type the two rows cost alike; kept per spelling, as
// express-openapi-validator 5.6.2 is published, each new spelling compiles the operation's schemas
// again and keeps them. The server runs in a child process; its CPU and memory are read from /proc.
// Prints a table; it asserts nothing (speed belongs here, not in tests).
import { request } from 'undici';
import { spawnServer } from '../scripts/server-process.ts';
import { cpuMs, rssMiB } from './proc.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const KEY = 'bench-key-0123456789';
const BODY = (n: number) => JSON.stringify({ title: `bench finding ${n}`, severity: 'high', device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2' });

const rows: Record<string, string | number>[] = [];
for (const mode of ['development', 'production'] as const) {
  const server = await spawnServer({
    SECMON_MODE: mode,
    SECMON_DB: ':memory:',
    SECMON_RATE_LIMIT: '0',
    SECMON_API_KEYS: `${KEY}:read+write`,
  });
  const pid = server.child.pid!;
  const url = `${server.url}/v1/findings`;
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
  // Warm-up: the operation's validators compiled once, the JIT settled.
  for (let i = 0; i < 200; i++) await create('application/json');
  for (const [label, contentType] of [
    ['one spelling', () => 'application/json'],
    ['a new spelling each', (i: number) => `application/json; v=${i}`],
  ] as const) {
    const before = { cpuMs: cpuMs(pid), rssMiB: rssMiB(pid) };
    const statuses = new Map<number, number>();
    for (let i = 0; i < REQUESTS; i++) {
      const status = await create(contentType(i));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const after = { cpuMs: cpuMs(pid), rssMiB: rssMiB(pid) };
    rows.push({
      mode,
      'Content-Type': label,
      'server CPU µs/request': Math.round(((after.cpuMs - before.cpuMs) / REQUESTS) * 1000),
      'server memory growth MiB': +(after.rssMiB - before.rssMiB).toFixed(1),
      answers: [...statuses].map(([status, count]) => `${count}× ${status}`).join(', '),
    });
    process.stderr.write(`${mode}, ${label}: done\n`);
  }
  await server.kill('SIGTERM');
}
console.log(`${REQUESTS} POST /v1/findings per row, node ${process.version}`);
console.table(rows);
