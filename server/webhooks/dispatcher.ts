// The delivery worker: claims due deliveries from the outbox (claim.ts), POSTs each stored body
// to its webhook (attempt.ts) and records the outcome (outcomes.ts), in batches.
import type { Logger } from 'pino';
import { Agent } from 'undici';
import type { DeliveryConfig, Mode } from '../config.ts';
import { faultLogFields } from '../store/faults.ts';
import type { ClaimedDelivery, Store } from '../store/store.ts';
import { AttemptTimeout, judgeAnswer, judgeError, send } from './attempt.ts';
import { claimDue } from './claim.ts';
import { type EndpointHealth, EndpointScheduler, healthOf } from './endpoints.ts';
import { type Attempt, type AttemptOutcome, type RecordedAttempt, recordAttempts } from './outcomes.ts';
import { RETRY_DELAYS_MS } from './schedule.ts';
import { guardedLookup, type Resolver } from './ssrf.ts';

/** Due retries are found by a timer; this bounds how long a delivery queued elsewhere can wait. */
const MAX_IDLE_MS = 1000;
/** Finished deliveries are kept a week for inspection, then pruned. */
const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface DispatcherOptions {
  store: Store;
  config: { mode: Mode; delivery: DeliveryConfig };
  logger: Logger;
  /** Name resolution for delivery-time SSRF checks; the system resolver by default. */
  resolve?: Resolver;
}

export interface Dispatcher {
  /** Resumes every pending delivery (including ones a crashed process had in flight) and starts claiming. */
  start(): void;
  /**
   * Stops claiming, waits up to `graceMs` for attempts in flight, then aborts the rest and leaves
   * them pending (not counted as attempts). The store must still be open.
   */
  stop(graceMs?: number): Promise<void>;
}

type Flight = { delivery: ClaimedDelivery; controller: AbortController; done: Promise<void> };

export function createDispatcher({ store, config, logger, resolve }: DispatcherOptions): Dispatcher {
  const { delivery: settings, mode } = config;
  const outbox = store.outbox;
  const log = logger.child({ component: 'webhooks' });
  const agent = new Agent({
    connect: { lookup: guardedLookup(mode, resolve), timeout: settings.timeoutMs },
    // Receivers are many and mostly idle: keep a connection briefly, not forever.
    keepAliveTimeout: 4000,
  });
  // The lease outlives any attempt (time-out plus slack) so a live attempt is never claimed twice.
  const leaseMs = settings.leaseMs ?? settings.timeoutMs + 30_000;
  const inFlight = new Map<string, Flight>();
  /** Attempts whose exchange with the endpoint has not ended (inFlight also holds those still recording). */
  let sending = 0;
  const endpoints = new EndpointScheduler({
    concurrency: settings.concurrency,
    maxPerEndpoint: settings.perWebhookConcurrency,
    // A new delivery probes an open circuit after the first retry delay (scaled like it).
    probeAfterMs: RETRY_DELAYS_MS[0]! * settings.retryScale,
  });
  let running = false;
  let pumpAgain = false;
  let timer: NodeJS.Timeout | undefined;
  let lastPrune = 0;
  let unsubscribe: (() => void) | undefined;

  // The pass running now, if any: stop() waits for it, so nothing it claims is launched after.
  let pass: Promise<void> | undefined;

  function pump(): void {
    if (!running) return;
    if (pass) {
      pumpAgain = true;
      return;
    }
    pass = claimAndLaunch().finally(() => (pass = undefined));
  }

  async function claimAndLaunch(): Promise<void> {
    // What was due at the last claim and not taken waits for a slot or a probe; the timer looks past it.
    let claimedAt = Date.now();
    try {
      do {
        pumpAgain = false;
        const free = settings.concurrency - sending;
        if (free <= 0) break;
        const now = (claimedAt = Date.now());
        // Where several instances claim, their attempts count against each endpoint's limit too.
        // A view, not a copy: the claim adds each webhook's count once it holds its lock.
        const plan = (leased: ReadonlyMap<string, number>) =>
          endpoints.plan(now, {
            get: (id) => Math.max(0, (leased.get(id) ?? 0) - endpoints.describe(id).inFlight),
            keys: () => leased.keys(),
          });
        const claimed = await claimDue(outbox, { now, limit: free, leaseMs, plan });
        for (const delivery of claimed) launch(delivery);
        if (claimed.length === free) pumpAgain = true;
      } while (pumpAgain && running);
      if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = Date.now();
        const pruned = await outbox.pruneFinished(lastPrune - RETENTION_MS);
        if (pruned > 0) log.info({ pruned }, 'pruned finished webhook deliveries');
      }
    } catch (error) {
      log.error({ err: error, ...faultLogFields(error) }, 'claiming webhook deliveries failed');
    }
    await schedule(claimedAt);
    // A wake-up that came while the timer was being set (an attempt ended, an event was queued).
    if (pumpAgain && running) await claimAndLaunch();
  }

  // Attempts that finish in the same turn of the event loop share one claim transaction.
  let pumpQueued = false;
  function pumpSoon(): void {
    if (pumpQueued) return;
    pumpQueued = true;
    setImmediate(() => {
      pumpQueued = false;
      pump();
    });
  }

  // Outcomes of one event-loop turn are written in one transaction: at thousands of deliveries a
  // second, a commit per attempt would cost more than the attempts.
  let batch: { attempt: Attempt; resolve: (recorded: RecordedAttempt) => void; reject: (error: unknown) => void }[] = [];
  function record(attempt: Attempt): Promise<RecordedAttempt> {
    return new Promise((resolve, reject) => {
      if (batch.push({ attempt, resolve, reject }) === 1) setImmediate(flush);
    });
  }
  function flush(): void {
    const items = batch;
    batch = [];
    const attempts = items.map((item) => item.attempt);
    outbox
      .record((tx) => recordAttempts(tx, attempts))
      .then(
        (recorded) => items.forEach((item, index) => item.resolve(recorded[index]!)),
        // The leases stay: once they run out the deliveries are tried again.
        (error: unknown) => items.forEach((item) => item.reject(error)),
      );
  }

  // Sleep until the earliest due (or lease expiry) time, bounded so nothing waits on a missed wake-up.
  async function schedule(claimedAt: number): Promise<void> {
    if (!running) return;
    let wait = MAX_IDLE_MS;
    try {
      // What was due at the claim and still pending waits for a slot or a probe: the attempt that
      // ends wakes the pump for it, so the timer looks at what falls due after the claim, and at
      // probe times still ahead.
      const probeAt = endpoints.nextProbeAt() ?? Infinity;
      const next = Math.min((await outbox.nextDueAt(claimedAt)) ?? Infinity, probeAt > claimedAt ? probeAt : Infinity);
      if (next !== Infinity) wait = Math.min(MAX_IDLE_MS, Math.max(0, next - Date.now()));
    } catch (error) {
      log.error({ err: error, ...faultLogFields(error) }, 'reading the webhook outbox failed');
    }
    clearTimeout(timer);
    if (!running) return;
    timer = setTimeout(pump, wait);
    timer.unref();
  }

  function launch(delivery: ClaimedDelivery): void {
    const controller = new AbortController();
    endpoints.started(delivery.webhookId);
    sending++;
    const flight: Flight = { delivery, controller, done: Promise.resolve() };
    inFlight.set(delivery.id, flight);
    let ended = false;
    // The slot is free once the exchange with the endpoint ends: recording the outcome is the
    // database's work (batched), and on PostgreSQL a slot held through it idled for round trips.
    const end = (health: EndpointHealth) => {
      if (ended) return;
      ended = true;
      sending--;
      const circuit = endpoints.finished(delivery.webhookId, health, Date.now());
      if (circuit === 'opened') log.warn({ webhook_id: delivery.webhookId }, 'webhook endpoint not answering; sending to it one at a time');
      else if (circuit === 'closed') log.info({ webhook_id: delivery.webhookId }, 'webhook endpoint answering again');
      pumpSoon();
    };
    flight.done = attempt(delivery, controller, end)
      .catch((error: unknown) =>
        log.error({ err: error, ...faultLogFields(error), delivery_id: delivery.id }, 'recording a webhook delivery failed'),
      )
      .finally(() => {
        inFlight.delete(delivery.id);
        end('unknown');
        // The pass that the slot's release started ran before this outcome was recorded, so it could
        // not see the retry it schedules: without another pass that retry waits for the idle timer.
        pumpSoon();
      });
  }

  async function attempt(delivery: ClaimedDelivery, controller: AbortController, judged: (health: EndpointHealth) => void): Promise<void> {
    const attemptNumber = delivery.attempts + 1;
    const fields = {
      delivery_id: delivery.id,
      webhook_id: delivery.webhookId,
      event: delivery.eventType,
      attempt: attemptNumber,
    };
    let outcome: AttemptOutcome;
    // When the attempt ended: its recorded time and the start of its retry delay, one clock reading.
    let endedAt: number;
    const deadline = setTimeout(() => controller.abort(new AttemptTimeout(settings.timeoutMs)), settings.timeoutMs);
    try {
      const response = await send(delivery, { mode, agent, signal: controller.signal });
      endedAt = Date.now();
      outcome = judgeAnswer(response.status, response.retryAfter, { attemptNumber, at: endedAt, retryScale: settings.retryScale });
    } catch (error) {
      if (controller.signal.reason === SHUTDOWN) {
        await outbox.releaseLease(delivery, Date.now());
        log.info(fields, 'webhook delivery interrupted by shutdown; left pending');
        return;
      }
      endedAt = Date.now();
      outcome = judgeError(controller.signal.reason ?? error, { attemptNumber, at: endedAt, retryScale: settings.retryScale });
    } finally {
      clearTimeout(deadline);
    }
    judged(healthOf(outcome));
    const { disabled, stale } = await record({ delivery, outcome, at: endedAt });
    if (stale) {
      // Counted by operators: the one way a receiver gets a delivery twice.
      log.warn({ ...fields, duplicate: true }, 'webhook delivery lease ran out during the attempt; another dispatcher sent it again');
      return;
    }
    const elapsed_ms = Date.now() - delivery.createdAt;
    if (outcome.kind === 'delivered') log.debug({ ...fields, status: outcome.status, elapsed_ms }, 'webhook delivered');
    else if (outcome.kind === 'retry') {
      log.info(
        { ...fields, status: outcome.status, error: outcome.error, retry_in_ms: outcome.dueAt - Date.now() },
        'webhook delivery failed; will retry',
      );
    } else log.warn({ ...fields, status: outcome.status, outcome: outcome.kind }, 'webhook delivery given up');
    if (disabled) log.warn({ webhook_id: delivery.webhookId, reason: disabled }, 'webhook disabled');
  }

  return {
    start() {
      if (running) return;
      running = true;
      unsubscribe = outbox.onEnqueue(pumpSoon);
      pass = outbox
        .resumeOrphaned(Date.now())
        .then((resumed) => {
          if (resumed > 0) log.warn({ resumed }, 'resending webhook deliveries a previous process had in flight');
        })
        .catch((error: unknown) => log.error({ err: error, ...faultLogFields(error) }, 'resuming webhook deliveries failed'))
        .then(claimAndLaunch)
        .finally(() => (pass = undefined));
    },
    async stop(graceMs = settings.timeoutMs) {
      running = false;
      clearTimeout(timer);
      unsubscribe?.();
      await pass;
      const flights = [...inFlight.values()];
      if (flights.length > 0) {
        let graceTimer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, graceMs)));
        await Promise.race([Promise.all(flights.map((flight) => flight.done)), grace]);
        clearTimeout(graceTimer);
        for (const flight of inFlight.values()) flight.controller.abort(SHUTDOWN);
        await Promise.all(flights.map((flight) => flight.done));
      }
      await agent.close().catch(() => agent.destroy());
    },
  };
}

/**
 * The dispatcher as a server worker (startServer's `workers`), with the options tests vary; the
 * store, configuration and logger come from the app.
 */
export function deliveryWorker(options: Pick<DispatcherOptions, 'resolve'> = {}) {
  return (app: Pick<DispatcherOptions, 'store' | 'config' | 'logger'>): Dispatcher =>
    createDispatcher({ store: app.store, config: app.config, logger: app.logger, ...options });
}

/** Abort reason: the dispatcher is stopping (leave the delivery pending). */
const SHUTDOWN = new Error('dispatcher stopping');
