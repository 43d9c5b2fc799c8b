// A loopback webhook receiver: keeps every delivery's raw body bytes and headers (a signature can
// only be checked on the exact bytes) and answers 204, or what a check asked for on a path (a
// receiver failing on purpose, to see the retries). Routes are free-form: the kit subscribes
// /events for the event checks and /sink for webhooks it creates only to exercise the API.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  receivedAt: number;
  /** What the receiver answered (set once it has). */
  answered?: Answer;
  /** When the exchange ended: the answer sent or the connection closed (unset while it is open). */
  closedAt?: number;
}

/** An answer of the receiver; `delayMs` holds it back that long (a receiver too slow to answer in time). */
export interface Answer {
  status: number;
  headers?: Record<string, string> | undefined;
  delayMs?: number;
  /** Holds the answer until this settles too (a receiver that answers when the check lets it). */
  until?: Promise<unknown>;
  /** Resets the connection instead of answering (`status` is then never sent). */
  reset?: true;
}

/** How the receiver answers a delivery on a path a check claimed; `attempt` counts from 1 per path. */
export type Responder = (delivery: Delivery, attempt: number) => Answer;

/**
 * A wait that follows the target's pace ends this many times its time-out after it began at the
 * latest, however long the target keeps sending.
 */
export const PACED_WAIT_LIMIT = 4;

export interface Waited {
  met: boolean;
  waitedMs: number;
  /** How much longer than its time-out a paced wait lasted because the target was still sending. */
  pacedMs: number;
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Answers deliveries whose path starts with `prefix` with `responder` instead of 204. */
  answer(prefix: string, responder: Responder): void;
  /**
   * Resolves once `done` holds for the deliveries so far, or at the deadline; says which and after
   * how long. A `paced` wait's deadline is `timeoutMs` after the last delivery of an
   * X-Service-Delivery not seen before (the first attempt of some event), up to PACED_WAIT_LIMIT
   * times `timeoutMs`: the document promises no delivery time, so a target still working through
   * a backlog (the kit's own earlier events, on a slow network) is given the time it visibly uses.
   */
  waitUntil(done: (deliveries: Delivery[]) => boolean, timeoutMs: number, pace?: 'fixed' | 'paced'): Promise<Waited>;
  close(): Promise<void>;
}

/**
 * Listens on `listen`; `publicUrl` is how the target reaches it when that differs (a tunnel or a
 * CI service in front of a production-mode target), loopback otherwise.
 */
export async function startReceiver(listen: { host: string; port: number }, publicUrl?: string): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const ids = new Set<string>();
  /** When the last delivery of an id not seen before came (0: none yet). */
  let lastFirstAttemptAt = 0;
  const waiters = new Set<() => void>();
  const responders = new Map<string, { responder: Responder; attempts: number }>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delivery = {
        path: req.url ?? '/',
        method: req.method ?? '',
        headers: req.headers,
        raw: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      deliveries.push(delivery);
      const id = req.headers['x-service-delivery'];
      if (typeof id === 'string' && !ids.has(id)) {
        ids.add(id);
        lastFirstAttemptAt = delivery.receivedAt;
      }
      const claimed = [...responders].find(([prefix]) => delivery.path.startsWith(prefix))?.[1];
      const answer = claimed ? claimed.responder(delivery, ++claimed.attempts) : { status: 204 };
      (delivery as Delivery).answered = answer;
      res.on('close', () => ((delivery as Delivery).closedAt = Date.now()));
      const send = () => {
        if (answer.reset) req.socket.resetAndDestroy();
        else if (!res.destroyed) res.writeHead(answer.status, answer.headers).end();
      };
      const delayed = () => (answer.delayMs ? setTimeout(send, answer.delayMs).unref() : send());
      if (answer.until) void answer.until.then(delayed, delayed);
      else delayed();
      for (const wake of waiters) wake();
    });
  });
  server.listen(listen.port, listen.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: publicUrl?.replace(/\/+$/, '') ?? `http://${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${port}`,
    deliveries,
    answer(prefix, responder) {
      responders.set(prefix, { responder, attempts: 0 });
    },
    async waitUntil(done, timeoutMs, pace = 'fixed') {
      const started = Date.now();
      const deadline = () =>
        pace === 'fixed'
          ? started + timeoutMs
          : Math.min(Math.max(started, lastFirstAttemptAt) + timeoutMs, started + PACED_WAIT_LIMIT * timeoutMs);
      if (!done(deliveries)) {
        await new Promise<void>((resolve) => {
          let timer: NodeJS.Timeout | undefined;
          const finish = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            resolve();
          };
          // A paced deadline moves while the wait lasts: when the timer fires, it looks again.
          const arm = () => {
            const left = deadline() - Date.now();
            if (left <= 0) finish();
            else timer = setTimeout(arm, left);
          };
          const wake = () => {
            if (done(deliveries)) finish();
          };
          waiters.add(wake);
          arm();
        });
      }
      const waitedMs = Date.now() - started;
      const pacedMs = pace === 'paced' ? Math.max(0, Math.min(waitedMs, deadline() - started) - timeoutMs) : 0;
      return { met: done(deliveries), waitedMs, pacedMs };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
