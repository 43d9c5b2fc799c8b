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
  /** Resolves with the deliveries matching `predicate` once there are `count` of them, or at the deadline. */
  waitFor(predicate: (delivery: Delivery) => boolean, count: number, timeoutMs: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

export async function startReceiver(host = '127.0.0.1'): Promise<Receiver> {
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
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host}:${port}`,
    deliveries,
    async waitFor(predicate, count, timeoutMs) {
      const matching = () => deliveries.filter(predicate);
      if (matching().length >= count) return matching();
      await new Promise<void>((resolve) => {
        const wake = () => {
          if (matching().length < count) return;
          cleanup();
        };
        const timer = setTimeout(() => cleanup(), timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
      });
      return matching();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
