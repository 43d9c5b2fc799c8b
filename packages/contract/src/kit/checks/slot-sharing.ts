// Delivery slots under a small, bounded load, late in the run when no other check's deliveries are
// due (a service with few slots shares them with what the load leaves, and other checks' waits would
// pay for it). A webhook whose receiver holds every request open and a healthy one get a burst of
// events (findings created); while the first receiver holds what it got, a second slow receiver gets
// a burst of its own (the findings resolved), so that two slow webhooks could take every slot. The
// healthy webhook must keep getting its deliveries while the slow receivers hold theirs (a slow
// receiver delays only its own deliveries), and no receiver ever has more than 8 requests open at
// once: each slow receiver has more than 8 events due at once, so a service without that limit would
// give it more. Then the slow receivers answer each request after a short pause, so the backlog they
// built up is sent while the count of open requests is still watched.
import { randomUUID } from 'node:crypto';
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import type { Answer, Delivery } from '../receiver.ts';
import { documentedResources, labels } from './shared/documented.ts';
import { createFinding, findingOf, label } from './shared/finding-events.ts';
import { crudNamed, distinct, findingUpdate, parseBody, type Sink, sink, subscribe } from './shared/rule-support.ts';

const RULES = ['slow-and-failing-receivers.1', 'slow-and-failing-receivers.2'] as const;
type Rule = (typeof RULES)[number];

const CREATED = 'finding.created';
const RESOLVED = 'finding.resolved';
/** Events in each burst: more than one webhook's 8 open attempts, so a backlog is due at once. */
const BURST = 12;
/** The findings created first, whose requests the first slow receiver holds before the rest are created. */
const FIRST_WAVE = 6;
/** How long the kit waits for the first slow receiver to hold the first wave before it sends the rest. */
const FIRST_WAVE_WAIT_MS = 2_000;
const MAX_OPEN = 8;

export const slotSharingCheck = defineCheck({
  name: 'slot-sharing',
  column: 'slots',
  rules: RULES,
  needs: { events: true },
  exercisesSuccess: false,
  // The findings created, resolved and deleted at cleanup; three webhooks subscribed and deleted.
  cost: { fixed: 3 * BURST + 6, perCase: 0 },
  instances: (model) => {
    const found = documentedResources(model);
    if (!found?.hook(CREATED) || !found.hook(RESOLVED)) return [];
    return [{ subjects: labels(found.hook(CREATED), found.hook(RESOLVED)), run: (ctx, check) => slotSharing(ctx, check) }];
  },
});

/**
 * How long a request is held at most, counted from the first held request's arrival: inside the
 * document's 10-second time limit, so no held request becomes a failure that would change the limits.
 */
const HOLD_LIMIT_MS = 8_000;
/** How long each request of the backlog is held once the slow receivers answer: long enough to overlap. */
const BACKLOG_HOLD_MS = 400;
/**
 * The healthy webhook stalled: nothing reached it this long while the slow receivers held requests
 * (at least, and at least three times the burst's first delivery's latency, so a service that is slow for
 * every webhook is not taken for one that lets slow receivers block the others).
 */
const STALL_MIN_MS = 4_000;
const STALL_LATENCIES = 3;

const isOpen = (d: Delivery) => d.closedAt === undefined;

/** The most requests a receiver had open at once: each from its arrival until its answer or close. */
export function mostOpen(deliveries: readonly Pick<Delivery, 'receivedAt' | 'closedAt'>[], now = Date.now()): number {
  // An end and an arrival at the same millisecond count the end first: the receiver cannot tell them apart.
  const edges = deliveries
    .flatMap((d) => [
      { at: d.receivedAt, step: 1 },
      { at: d.closedAt ?? now, step: -1 },
    ])
    .sort((a, b) => a.at - b.at || a.step - b.step);
  let open = 0;
  let most = 0;
  for (const { step } of edges) most = Math.max(most, (open += step));
  return most;
}

/** What the healthy webhook got while the slow receivers held their requests. */
export interface HoldSeen {
  /** When the burst was sent. */
  sentAt: number;
  /** When the first held request arrived; undefined: the slow receivers never held one. */
  heldFrom: number | undefined;
  /**
   * When the kit's last request that causes the healthy webhook's events was answered: before
   * that, what it still lacked was not due yet (the kit may have waited for its rate limit).
   */
  causedUntil: number;
  /** Arrivals at the healthy webhook before `judgedAt`, the first of each delivery. */
  healthyArrivals: number[];
  /** Whether the healthy webhook had both bursts by `judgedAt`. */
  served: boolean;
  /**
   * Whether a delivery reached the healthy webhook twice: the service saw an attempt there fail (an
   * acknowledgement lost or late), which lets the document's halving and circuit slow it, or sent
   * copies, which the document allows and which take slots too.
   */
  healthyRetried: boolean;
  judgedAt: number;
}

/**
 * The stall the healthy webhook suffered while requests were held (ms), when it is long enough to
 * be one; undefined when it was served, kept getting deliveries, nothing was held, or the service
 * saw it fail. A stall shorter than the window left cannot be told from latency, so it is no
 * verdict either.
 */
export function healthyStall(seen: HoldSeen): number | undefined {
  if (seen.served || seen.heldFrom === undefined || seen.healthyRetried) return undefined;
  // The service's latency for this burst: its first delivery to any of the receivers.
  const latency = Math.min(seen.heldFrom, ...seen.healthyArrivals) - seen.sentAt;
  const limit = Math.max(STALL_MIN_MS, STALL_LATENCIES * latency);
  const lastArrival = Math.max(seen.heldFrom, seen.causedUntil, ...seen.healthyArrivals.filter((at) => at <= seen.judgedAt));
  const quiet = seen.judgedAt - lastArrival;
  return quiet >= limit ? quiet : undefined;
}

interface Load {
  slow: Sink[];
  healthy: Sink;
  seen: HoldSeen;
  heldThen: number;
}

async function slotSharing(ctx: KitContext, check: Check<Rule>): Promise<{ note: string }> {
  const webhooks = crudNamed(ctx, 'webhooks');
  const hooks: string[] = [];
  try {
    const { slow, healthy, seen, heldThen } = await runLoad(ctx, check, hooks);
    const subject = label(ctx, CREATED);
    const receivers = [
      { name: 'a slow receiver', most: mostOpen(slow[0]!.deliveries()) },
      { name: 'the other slow receiver', most: mostOpen(slow[1]!.deliveries()) },
      { name: 'the healthy receiver', most: mostOpen(healthy.deliveries()) },
    ];
    const note =
      `${BURST} findings created and resolved, their events to two receivers that held their requests and a healthy one` +
      ` (${seen.healthyArrivals.length} of ${2 * BURST} arrived there in ${seen.judgedAt - seen.sentAt} ms` +
      `${seen.healthyRetried ? ', some of them again (a failed attempt or a copy), so its pace was not judged' : ''});` +
      ` most requests open at once: ${receivers.map((r) => r.most).join(', ')}`;
    const stall = healthyStall(seen);
    if (stall !== undefined)
      check.fail({
        at: subject,
        rule: 'slow-and-failing-receivers.1',
        observed: `a webhook that answers at once got nothing for ${(stall / 1000).toFixed(1)} s, still waiting for ${2 * BURST - seen.healthyArrivals.length} of ${2 * BURST} events, while two slow receivers held ${heldThen} requests`,
        details: [note],
      });
    for (const { name, most } of receivers)
      if (most > MAX_OPEN)
        check.fail({
          at: subject,
          rule: 'slow-and-failing-receivers.2',
          observed: `${name} had ${most} requests open to it at once`,
          details: [note],
        });
    return { note };
  } finally {
    await Promise.all(hooks.map((id) => ctx.send(webhooks.delete, { id }).catch(() => undefined)));
  }
}

async function runLoad(ctx: KitContext, check: Check<Rule>, hooks: string[]): Promise<Load> {
  const findingsOp = crudNamed(ctx, 'findings');
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let backlog = false;
  const slowAnswer = (): Answer => (backlog ? { status: 204, delayMs: BACKLOG_HOLD_MS } : { status: 204, until: held });
  const slow = await Promise.all([CREATED, RESOLVED].map((event) => sink(ctx, `slots-slow-${event}`, slowAnswer)));
  const healthy = await sink(ctx, 'slots-healthy');
  try {
    hooks.push((await subscribe(ctx, check, slow[0]!.url, [CREATED])).id);
    hooks.push((await subscribe(ctx, check, slow[1]!.url, [RESOLVED])).id);
    hooks.push((await subscribe(ctx, check, healthy.url, [CREATED, RESOLVED])).id);
    const token = `kit-slots-${randomUUID().slice(0, 8)}`;
    const sentAt = Date.now();
    const findings = new Set<string>();
    const create = async (count: number) => {
      const made = await Promise.all(Array.from({ length: count }, () => createFinding(ctx, check, { title: token })));
      for (const finding of made) findings.add(finding.id);
      return made;
    };
    const created = await create(FIRST_WAVE);
    const ours = (ds: Delivery[], event?: string) =>
      ds.filter((d) => (event === undefined || parseBody(d)?.event === event) && findings.has(String(findingOf(d))));
    const burstOf = (event: string) => (ds: Delivery[]) => new Set(ours(ds, event).map(findingOf)).size === BURST;
    const heldFrom = () => {
      const arrivals = slow.flatMap((s) => ours(s.deliveries()).map((d) => d.receivedAt));
      return arrivals.length === 0 ? undefined : Math.min(...arrivals);
    };
    // Bounded by the kit's event timeout until a request is held, then by the hold limit (a stall
    // needs that long to be told from latency).
    const left = () => {
      const from = heldFrom();
      return Math.max(0, (from === undefined ? sentAt + ctx.options.eventTimeoutMs : from + HOLD_LIMIT_MS) - Date.now());
    };
    // In short steps, since the hold limit moves closer when the first request is held.
    const until = async (done: () => boolean, what: string, atMostMs = Number.POSITIVE_INFINITY) => {
      const end = Date.now() + atMostMs;
      const remaining = () => Math.min(left(), end - Date.now());
      while (!done() && remaining() > 0) await healthy.waitFor(done, what, Math.min(remaining(), 250));
      return done();
    };
    const waitFor = (event: string) => until(() => burstOf(event)(healthy.deliveries()), `the ${event} burst at the healthy webhook`);
    // The first slow receiver holds the first wave (fewer than 8 requests) before the rest is due, so
    // a service that counts a webhook's open attempts only between claims, not within one, opens more.
    // A service that gives it fewer at once (as the document allows) is not waited for long: the
    // hold limit is for the healthy webhook's bursts.
    await until(() => slow[0]!.deliveries().filter(isOpen).length >= FIRST_WAVE, 'the first wave held', FIRST_WAVE_WAIT_MS);
    created.push(...(await create(BURST - FIRST_WAVE)));
    let causedUntil = Date.now();
    const first = await waitFor(CREATED);
    if (first) {
      await Promise.all(
        created.map(async (finding) =>
          check.conform(
            findingsOp.update,
            await ctx.send(findingsOp.update, { id: finding.id, body: findingUpdate(finding.json, 'resolved') }),
            { statuses: [200] },
            'finding → resolved',
          ),
        ),
      );
      causedUntil = Date.now();
    }
    const served = first && (await waitFor(RESOLVED));
    const judgedAt = Date.now();
    const atHealthy = ours(healthy.deliveries());
    const healthyArrivals = distinct(atHealthy).map((d) => d.receivedAt);
    const seen: HoldSeen = {
      sentAt,
      heldFrom: heldFrom(),
      causedUntil,
      healthyArrivals,
      served,
      healthyRetried: healthyArrivals.length < atHealthy.length,
      judgedAt,
    };
    const heldThen = slow.reduce((sum, s) => sum + s.deliveries().filter(isOpen).length, 0);
    backlog = true;
    release();
    await Promise.all([
      slow[0]!.waitFor(burstOf(CREATED), 'the backlog'),
      ...(first ? [slow[1]!.waitFor(burstOf(RESOLVED), 'the backlog')] : []),
    ]);
    return { slow, healthy, seen, heldThen };
  } finally {
    release();
  }
}
