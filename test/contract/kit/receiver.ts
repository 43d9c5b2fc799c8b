// A loopback webhook receiver: keeps every delivery's raw body bytes and headers (a signature can
// only be checked on the exact bytes) and answers 204. Routes are free-form: the kit subscribes
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
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Resolves once `done` holds for the deliveries so far, or at the deadline; says which and after how long. */
  waitUntil(done: (deliveries: Delivery[]) => boolean, timeoutMs: number): Promise<{ met: boolean; waitedMs: number }>;
  close(): Promise<void>;
}

/**
 * Listens on `listen`; `publicUrl` is how the target reaches it when that differs (a tunnel or a
 * CI service in front of a production-mode target), loopback otherwise.
 */
export async function startReceiver(listen: { host: string; port: number }, publicUrl?: string): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ path: req.url ?? '/', method: req.method ?? '', headers: req.headers, raw: Buffer.concat(chunks), receivedAt: Date.now() });
      res.writeHead(204).end();
      for (const wake of waiters) wake();
    });
  });
  server.listen(listen.port, listen.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: publicUrl?.replace(/\/+$/, '') ?? `http://${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${port}`,
    deliveries,
    async waitUntil(done, timeoutMs) {
      const started = Date.now();
      if (!done(deliveries)) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            if (done(deliveries)) finish();
          };
          const timer = setTimeout(() => finish(), timeoutMs);
          const finish = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
        });
      }
      return { met: done(deliveries), waitedMs: Date.now() - started };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
