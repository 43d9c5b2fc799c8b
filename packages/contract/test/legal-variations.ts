// Behaviours the document allows that the kit must not fail, as faults of the proxy that turns the
// reference server into a stand-in: a fixed quota window per key with `t` rounded up, answers of
// receivers lost on their way back, deliveries delayed and reordered, no simulator route, and a
// trigger command that raises an event with data of its own for every subscriber.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { answer, heldDeliveries, rateLimited, receiverAnswer, requestPath } from './fault-dsl.ts';
import type { Fault } from './fault-proxy.ts';
import { WRITER_KEY } from './reference-target.ts';

/** An implementation without the test-support route: `POST /_simulator/events` is not found. */
export const withoutSimulator = requestPath((path) => (path.startsWith('/_simulator') ? '/_none' : path));

/**
 * Writes, into `dir`, a device side that raises the event type alone on `deviceSide` (every
 * subscriber gets it, with data of its own) and returns the `--trigger-command` that runs it.
 */
export function broadcastingCommand(dir: string, deviceSide: string, node = process.execPath): string {
  writeFileSync(
    join(dir, 'raise.mjs'),
    `const response = await fetch(process.argv[3] + '/_simulator/events', {
  method: 'POST',
  headers: { authorization: 'Bearer ${WRITER_KEY}', 'content-type': 'application/json' },
  body: JSON.stringify({ event: process.argv[2] }),
});
if (response.status !== 202) { console.error(response.status, await response.text()); process.exit(1); }
`,
  );
  return `"${node}" ${join(dir, 'raise.mjs')} {event} ${deviceSide}`;
}

export /**
 * A quota counted in fixed windows per key, `t` rounded up to whole seconds: the key's first
 * window ends `firstMs` after its first request (as if it began before the kit came), each
 * later one lasts `seconds`; every answer is `paceMs` late, so using the quota takes a while.
 * `extra` requests past the quota still get through (a fault, when more than 0).
 */
function fixedWindows(quota: number, seconds: number, firstMs: number, paceMs: number, extra = 0): Fault {
  const windows = new Map<string, { endsAt: number; used: number }>();
  const name = `"${quota}-in-${seconds}s"`;
  return answer({}, async (request, response) => {
    await sleep(paceMs);
    const key = request.headers.authorization;
    // Failed authentication is limited per address, not per key: the server's own answer stands.
    if (!key || response.status === 401 || /failed-auth/.test(response.headers['ratelimit-policy'] ?? '')) return undefined;
    const now = Date.now();
    let window = windows.get(key);
    if (!window) windows.set(key, (window = { endsAt: now + firstMs, used: 0 }));
    else if (now >= window.endsAt) windows.set(key, (window = { endsAt: now + seconds * 1000, used: 0 }));
    window.used++;
    const t = String(Math.ceil((window.endsAt - now) / 1000));
    const headers = { ...response.headers, 'ratelimit-policy': `${name}; q=${quota}; w=${seconds}` };
    if (window.used <= quota + extra)
      return { ...response, headers: { ...headers, ratelimit: `${name}; r=${Math.max(0, quota - window.used)}; t=${t}` } };
    return rateLimited({ 'ratelimit-policy': headers['ratelimit-policy'], ratelimit: `${name}; r=0; t=${t}`, 'retry-after': t });
  });
}

export /** The first 2xx of each delivery is lost on its way back: the service gets a 503 from the proxy instead. */
function lostAcknowledgements(): Fault {
  const lost = new Set<string>();
  return receiverAnswer((answered, delivery) => {
    const id = delivery['x-service-delivery'] ?? '';
    if (answered.status < 200 || answered.status > 299 || lost.has(id)) return answered;
    lost.add(id);
    return { status: 503, headers: {} };
  });
}

export /** Every delivery held 0–1.5 s on its way (a seeded draw per delivery), so they also come out of order. */
function delayedDeliveries(): Fault {
  let seed = 7;
  return heldDeliveries(() => ((seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647) * 1500);
}

export /**
 * Failed authentication limited per address in fixed windows of `seconds` that begin at a failure,
 * `t` rounded up, every answer `paceMs` late (so a short window can end during the kit's probe).
 * Requests whose Authorization matches `uncounted` are not counted, and `retryAfter` states another
 * wait than the seconds left (faults).
 */
function failedAuthWindows({
  limit,
  seconds,
  paceMs = 0,
  uncounted,
  retryAfter = (left) => left,
}: {
  limit: number;
  seconds: number;
  paceMs?: number;
  uncounted?: RegExp;
  retryAfter?: (left: number) => number;
}): Fault {
  const name = `"failed-auth-${limit}-in-${seconds}s"`;
  let window = { endsAt: 0, used: 0 };
  return answer({ status: 401 }, async (request) => {
    await sleep(paceMs);
    const now = Date.now();
    if (now >= window.endsAt) window = { endsAt: now + seconds * 1000, used: 0 };
    if (uncounted?.test(request.headers.authorization ?? '') || ++window.used <= limit) return undefined;
    const t = Math.ceil((window.endsAt - now) / 1000);
    return rateLimited({
      'ratelimit-policy': `${name}; q=${limit}; w=${seconds}`,
      ratelimit: `${name}; r=0; t=${t}`,
      'retry-after': String(retryAfter(t)),
    });
  });
}
