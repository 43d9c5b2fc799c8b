// `npm run bench:profile`: where a request's server CPU goes, per middleware and per store call.
// The server (production mode, or development with `--development`) runs under V8's sampling
// profiler (`--cpu-prof`) while autocannon sends one operation for a few seconds; each sample is
// charged to the innermost frame of this repository's own modules or of a known dependency, so
// native and Node-internal time (SQLite, sockets, JSON) counts for the code that asked for it.
// `--previous` profiles the previous release's server instead (bench/previous-release.ts).
// Prints one table per operation: share of the samples and µs per request. Profiles stay in a
// temporary folder (`--keep` prints its path).

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { root } from '../scripts/pipeline.ts';
import { freePort } from './free-port.ts';
import { PREVIOUS_RELEASE, previousReleaseTree } from './previous-release.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 4);
const KEY = 'bench-key-0123456789';
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const CREATE_BODY = JSON.stringify({
  title: 'SSH root login enabled',
  severity: 'high',
  device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2',
  description: 'Benchmark finding',
});
const OPS = (process.env.BENCH_OPS ?? 'create,read,list').split(',') as ('create' | 'read' | 'list')[];
const mode = process.argv.includes('--development') ? 'development' : 'production';
const log = (message: string) => process.stderr.write(`bench profile: ${message}\n`);
const tree = process.argv.includes('--previous') ? previousReleaseTree(log) : root;
const subject = tree === root ? mode : `${PREVIOUS_RELEASE.version} ${mode}`;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Now on the monotonic clock V8's profiles use (µs), the same in every process of the machine. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** Buckets, first match wins, tested from the sampled frame outwards. */
const BUCKETS: [string, RegExp][] = [
  ['store: sqlite', /server\/store\/sqlite\//],
  ['store: postgres', /server\/store\/postgres\//],
  ['store: shared (faults, write path)', /server\/store\//],
  ['express-openapi-validator', /node_modules\/express-openapi-validator\//],
  ['ajv (validation)', /node_modules\/ajv/],
  ['path-to-regexp', /node_modules\/path-to-regexp\//],
  ['cors', /node_modules\/cors\//],
  ['express-rate-limit', /node_modules\/express-rate-limit\//],
  ['body-parser, raw-body', /node_modules\/(body-parser|raw-body|iconv-lite|type-is|content-type|media-typer)\//],
  ['pino (logging)', /node_modules\/(pino|sonic-boom|fast-redact|thread-stream)/],
  [
    'express + router',
    /node_modules\/(express|router|finalhandler|send|on-finished|statuses|qs|parseurl|fresh|accepts|negotiator|mime-types|vary|etag|proxy-addr|forwarded|encodeurl|escape-html)\//,
  ],
  ['server/http (auth, etag, problems, logging, ...)', /server\/http\//],
  ['server/routes', /server\/routes\//],
  ['core (use cases, domain rules)', /\/packages\/core\/src\/|server\/domain\//],
  ['server/webhooks (dispatcher)', /server\/webhooks\//],
  ['secmon-api (packages/api/src)', /\/packages\/api\/src\//],
  ['other node_modules', /node_modules\//],
  ['server (other)', /\/server\//],
];

function bucketOf(stack: ProfileNode[]): string {
  const leaf = stack[stack.length - 1]!.callFrame.functionName;
  if (leaf === '(garbage collector)') return 'garbage collection';
  if (leaf === '(idle)') return 'idle';
  for (let index = stack.length - 1; index >= 0; index--) {
    const url = stack[index]!.callFrame.url;
    if (!url.startsWith('file://')) continue;
    for (const [name, pattern] of BUCKETS) if (pattern.test(url)) return name;
  }
  // Only Node internals on the stack: the HTTP server's parsing, writing and sockets.
  return leaf === '(program)' ? 'V8/native (program)' : 'node: http, net, streams';
}

/** CPU time per bucket of the samples taken between `from` and `to` (monotonic µs). */
function attribute(profile: Profile, from: number, to: number): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  const memo = new Map<number, string>();
  const totals = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (at < from || at > to) return;
    let bucket = memo.get(id);
    if (bucket === undefined) {
      const stack: ProfileNode[] = [];
      for (let node: ProfileNode | undefined = byId.get(id); node; node = parent.get(node.id)) stack.unshift(node);
      bucket = bucketOf(stack);
      memo.set(id, bucket);
    }
    totals.set(bucket, (totals.get(bucket) ?? 0) + delta);
  });
  return totals;
}

async function profileOp(op: (typeof OPS)[number], dir: string): Promise<{ op: string; requests: number; totals: Map<string, number> }> {
  const port = await freePort();
  const profileDir = join(dir, op);
  const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir', profileDir, 'server/main.ts'], {
    cwd: tree,
    env: {
      ...process.env,
      PORT: String(port),
      SECMON_MODE: mode,
      SECMON_DB: join(dir, `${op}.db`),
      SECMON_API_KEYS: `${KEY}:read+write`,
      SECMON_RATE_LIMIT: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      if (attempt > 200) throw new Error('server did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let readId = '';
  for (let index = 0; index < 40; index++)
    readId = ((await (await fetch(`${url}/v1/findings`, { method: 'POST', headers: HEADERS, body: CREATE_BODY })).json()) as { id: string })
      .id;
  const options = {
    url: url + (op === 'read' ? `/v1/findings/${readId}` : '/v1/findings'),
    method: op === 'create' ? ('POST' as const) : ('GET' as const),
    body: op === 'create' ? CREATE_BODY : undefined,
    headers: HEADERS,
    connections: 10,
  };
  log(`${subject} ${op}: ${DURATION_S} s under load`);
  await autocannon({ ...options, duration: 1 });
  const from = monotonicUs();
  const result = await autocannon({ ...options, duration: DURATION_S });
  const to = monotonicUs();
  child.kill('SIGTERM');
  await once(child, 'exit');
  const [file] = readdirSync(profileDir);
  const totals = attribute(JSON.parse(readFileSync(join(profileDir, file!), 'utf8')) as Profile, from, to);
  return { op, requests: result.requests.total, totals };
}

function table(result: Awaited<ReturnType<typeof profileOp>>): string {
  const busy = [...result.totals].filter(([bucket]) => bucket !== 'idle');
  const sum = busy.reduce((total, [, us]) => total + us, 0);
  const lines = [
    `${subject} ${result.op}: ${(sum / result.requests).toFixed(0)} µs of main-thread samples per request (idle excluded)`,
    '',
    '| where | share | µs/req |',
    '|---|---:|---:|',
  ];
  for (const [bucket, us] of busy.sort((a, b) => b[1] - a[1]))
    lines.push(`| ${bucket} | ${((us / sum) * 100).toFixed(1)} % | ${(us / result.requests).toFixed(0)} |`);
  return lines.join('\n');
}

const dir = mkdtempSync(join(tmpdir(), 'secmon-profile-'));
try {
  for (const op of OPS) process.stdout.write(`\n${table(await profileOp(op, dir))}\n`);
} finally {
  if (process.argv.includes('--keep')) log(`profiles kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
