// `npm run bench:warm-up` — what a fresh server spends on its first answers, in development mode
// (which validates responses, as `npm start` and every test server does): the server's CPU for a
// tour of every operation (a create, a read, a list, an update, a read of a missing item, an invalid
// create and a delete per resource, then each refused without a key), the first time and the second.
// The first tour compiles the validators of each operation's requests and responses with Ajv;
// the second shows what the answers themselves cost. Three fresh servers, one row each. The server
// runs in a child process; its CPU is read from /proc. Prints a table; it asserts nothing.
import { request } from 'undici';
import { spawnServer } from '../scripts/server-process.ts';
import { cpuMs } from './proc.ts';

const KEY = 'bench-key-0123456789';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BODIES: Record<string, { create: unknown; update: unknown }> = {
  policies: {
    create: { name: 'bench policy', severity: 'high', frameworks: [] },
    update: { name: 'bench policy 2', description: '', severity: 'low', enabled: true, frameworks: [], rule: null },
  },
  findings: {
    create: { title: 'bench finding', severity: 'high', device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2' },
    update: { status: 'acknowledged' },
  },
  webhooks: {
    create: { url: 'https://receiver.example.com/hook', events: ['finding.created'] },
    update: { url: 'https://receiver.example.com/hook', events: ['finding.created'], enabled: false },
  },
};
const MISSING: Record<string, string> = {
  policies: 'pol_01jbz0r5s6t7v8w9x0y1z2a3b4',
  findings: 'fnd_01jbz3k7q2w9x8v6t5r4p3n2m1',
  webhooks: 'whk_01jbz4a6b8c0d2e4f6g8h0j2k4',
};

async function send(base: string, method: string, path: string, body?: unknown, key: string | null = KEY) {
  const answer = await request(`${base}${path}`, {
    method: method as 'GET',
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await answer.body.text();
  return { status: answer.statusCode, json: text ? (JSON.parse(text) as { id?: string }) : undefined };
}

async function tour(base: string): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const seen = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  for (const [collection, body] of Object.entries(BODIES)) {
    const path = `/v1/${collection}`;
    const created = await send(base, 'POST', path, body.create);
    seen(created.status);
    const item = `${path}/${created.json?.id}`;
    for (const [method, at, sent] of [
      ['GET', item],
      ['GET', `${path}?limit=5`],
      ['PUT', item, body.update],
      ['GET', `${path}/${MISSING[collection]}`],
      ['POST', path, { unexpected: true }],
      ['DELETE', item],
    ] as const)
      seen((await send(base, method, at, sent)).status);
    seen((await send(base, 'GET', path, undefined, null)).status);
  }
  return statuses;
}

const rows: Record<string, string | number>[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const server = await spawnServer({
    SECMON_MODE: 'development',
    SECMON_DB: ':memory:',
    SECMON_RATE_LIMIT: '0',
    SECMON_API_KEYS: `${KEY}:read+write`,
  });
  const pid = server.child.pid!;
  const row: Record<string, string | number> = { server: round, 'start-up CPU ms': cpuMs(pid) };
  for (const label of ['first tour', 'second tour']) {
    const before = cpuMs(pid);
    const statuses = await tour(server.url);
    row[`${label} CPU ms`] = cpuMs(pid) - before;
    row.answers = [...statuses].map(([status, count]) => `${count}× ${status}`).join(', ');
  }
  rows.push(row);
  process.stderr.write(`server ${round}: done\n`);
  await server.kill('SIGTERM');
}
console.log(`a tour: 24 requests over the 15 operations, development mode, node ${process.version}`);
console.table(rows);
