// No false alarms: the reference server behind a proxy that changes only what the document leaves
// open — another cursor encoding, JSON key order and whitespace, header-name case, chunked bodies,
// another ETag encoding, a preflight listing only its path's methods, every delivery duplicated and
// delivered out of order — must pass every behaviour check. Each situation runs beside the others, on targets of its own.

import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../src/kit/raw-http.ts';
import { type CheckName, DEFINITIONS } from '../src/kit/registry.ts';
import { runKit } from '../src/kit/runner.ts';
import { all, answer, chunkedAnswers, duplicatedDeliveries, requestHeaders, requestPath } from './fault-dsl.ts';
import { type ProxiedResponse, startFaultProxy } from './fault-proxy.ts';
import { methodsOf } from './path-methods.ts';
import { type ReferenceTarget, startReferenceTarget } from './reference-target.ts';

let reference: ReferenceTarget;
beforeAll(async () => {
  reference = await startReferenceTarget();
});
afterAll(async () => {
  await reference?.server.close();
});

// Still within the Cursor schema ([A-Za-z0-9_-], at most 512 characters).
const WRAP = 'v2_';
const wrap = (cursor: string) => WRAP + Buffer.from(cursor).toString('base64url');

/** Keys in reverse order, at every depth. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, inner]) => [key, reversed(inner)]),
  );
}

/** Another strong ETag for the same representation: `"abc"` ↔ `"v2-abc"`. */
const ETAG = /^"(.*)"$/;
const wrapTag = (tag: string) => tag.replace(ETAG, '"v2-$1"');
const unwrapTag = (tag: string) => tag.replace(/^"v2-(.*)"$/, '"$1"');

const titleCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => dash + letter.toUpperCase());

const legalVariations = all(
  requestPath((path) => {
    const url = new URL(path, 'http://x');
    const cursor = url.searchParams.get('cursor');
    if (cursor?.startsWith(WRAP)) url.searchParams.set('cursor', Buffer.from(cursor.slice(WRAP.length), 'base64url').toString('utf8'));
    return url.pathname + url.search;
  }),
  requestHeaders((headers) =>
    Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, name === 'if-match' || name === 'if-none-match' ? unwrapTag(value) : value]),
    ),
  ),
  answer({}, (request, response): ProxiedResponse => {
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [titleCase(name), name === 'etag' ? wrapTag(value) : value]),
    );
    if (request.method === 'OPTIONS' && headers['Access-Control-Allow-Methods'])
      headers['Access-Control-Allow-Methods'] = methodsOf(request.path);
    if (!/json/.test(response.headers['content-type'] ?? '') || response.body.length === 0) return { ...response, headers };
    const json = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
    if (typeof json.next_cursor === 'string') json.next_cursor = wrap(json.next_cursor);
    return { ...response, headers, body: Buffer.from(`\n${JSON.stringify(reversed(json), null, 2)}\n`) };
  }),
  duplicatedDeliveries(),
  chunkedAnswers(),
);

const PER_OPERATION = 'a per-operation check, run against the plain reference server in reference.test.ts';
const PER_RESOURCE =
  'a per-resource check, run against the plain reference server in reference.test.ts (lifecycle and pagination stand for them here)';
/**
 * The checks not run behind the variations, each with the reason; every other check of the
 * registry is, so a new check is judged here unless it is excused on purpose.
 */
const EXCUSED: Partial<Record<CheckName, string>> = {
  'success-response': PER_OPERATION,
  'valid-input': PER_OPERATION,
  'invalid-body': PER_OPERATION,
  'invalid-parameters': PER_OPERATION,
  'no-credentials-401': PER_OPERATION,
  'unknown-key-401': PER_OPERATION,
  'read-only-key-403': PER_OPERATION,
  'unsupported-method': PER_OPERATION,
  'available-after-create': PER_RESOURCE,
  'use-after-delete': PER_RESOURCE,
  idempotency: PER_RESOURCE,
  transitions: PER_RESOURCE,
  'rate-limit-429': 'needs a low-quota target of its own (reference.test.ts)',
};
const JUDGED = DEFINITIONS.map((definition) => definition.name).filter((name) => !(name in EXCUSED));

describe.concurrent('legal variations of the reference server', () => {
  it('pass every behaviour check', async () => {
    const proxy = await startFaultProxy(reference.server.url, legalVariations);
    try {
      const run = await runKit(
        { ...reference.kit, baseUrl: proxy.url, corsOrigin: 'http://localhost:5173', skipRetryTiming: 'compressed schedule' },
        { only: (planned) => JUDGED.includes(planned.check) },
      );
      expect(run.results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id}: ${r.error ?? r.reason}`)).toEqual([]);
      expect(new Set(run.results.map((r) => r.check))).toEqual(new Set(JUDGED));
    } finally {
      await proxy.close();
    }
  }, 120_000);
});

describe.concurrent('a client address over its failed-authentication limit', () => {
  it('gets 429 rate-limited instead of 401, which the 401 checks accept while a valid key is still served, and the kit never waits for it', async () => {
    const throttled = await startReferenceTarget(undefined, undefined, { authFailuresPerMinute: 2 });
    try {
      const checks: CheckName[] = ['no-credentials-401', 'unknown-key-401', 'response-audit', 'cors'];
      const waits: string[] = [];
      const run = await runKit(
        { ...throttled.kit, events: 'skip', corsOrigin: 'http://localhost:5173', onWait: (ms, why) => waits.push(`${ms} ms: ${why}`) },
        { only: (planned) => checks.includes(planned.check) },
      );
      expect(run.results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id}: ${r.error ?? r.reason}`)).toEqual([]);
      expect(run.results.filter((r) => r.note?.includes('429 rate-limited')).length).toBeGreaterThan(10);
      // The address's failed-authentication policy paces nothing: not the keys, not a preflight sent without one.
      expect(waits).toEqual([]);
    } finally {
      await throttled.server.close();
    }
  }, 60_000);
});
describe.concurrent('a problem answered with a chunked body to the raw-socket probe', () => {
  it('is read as the problem it carries (Transfer-Encoding: chunked is legal HTTP/1.1)', async () => {
    const problem = JSON.stringify({ type: 'https://secmon.dev/problems/headers-too-large', title: 'Too large', status: 431 });
    const server = createServer((socket) => {
      socket.once('data', () => {
        const [head, tail] = [problem.slice(0, 20), problem.slice(20)];
        const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
        socket.end(
          `HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/problem+json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunk(head)}${chunk(tail)}0\r\n\r\n`,
        );
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await rawRequest(`http://127.0.0.1:${port}`, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', 5_000);
      expect(answer.status).toBe(431);
      expect(JSON.parse(answer.body)).toEqual(JSON.parse(problem));
    } finally {
      server.close();
    }
  });
});

describe.concurrent('a delivery sent twice at once, on the documented retry schedule', () => {
  it('is one attempt: the retry is judged from the attempt after it, not from the copy', async () => {
    const documented = await startReferenceTarget(undefined, 1);
    const proxy = await startFaultProxy(documented.server.url, duplicatedDeliveries());
    try {
      const run = await runKit({ ...documented.kit, baseUrl: proxy.url }, { only: (planned) => planned.check === 'delivery-retry' });
      expect(run.results.map((r) => [r.check, r.outcome, r.error ?? ''])).toEqual([['delivery-retry', 'passed', '']]);
      expect(run.results[0]!.note).toMatch(/first retry after \d+\.\d s/);
    } finally {
      await proxy.close();
      await documented.server.close();
    }
  }, 60_000);
});

describe.concurrent('a key without a quota (the policy named unlimited)', () => {
  it('skips the 429 probe saying there is none to provoke, with advice that fits (no --rate-probe-max 4294967295)', async () => {
    const unlimited = await startReferenceTarget(0);
    try {
      const run = await runKit({ ...unlimited.kit, events: 'skip' }, { only: (planned) => planned.check === 'rate-limit-429' });
      expect(run.results.map((r) => [r.outcome, r.reason])).toEqual([
        ['skipped', expect.stringMatching(/has no quota.*no 429 to provoke/)],
      ]);
      expect(run.results[0]!.gate).toMatch(
        /give a key with one to check the 429, or declare the probe out of scope with --rate-probe skip/,
      );
      expect(run.results[0]!.gate).not.toMatch(/--rate-probe-max/);
    } finally {
      await unlimited.server.close();
    }
  });
});
