// A loopback webhook receiver for tests and benchmarks: records every request with its raw body and answers
// each one as the test scripts it (a status, a time-out, a connection reset).
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Receipt {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the body was complete. */
  at: number;
}

/** How to answer one request. */
export type Answer =
  | number
  | {
      status: number;
      headers?: Record<string, string>;
      /** answer after this long */
      delayMs?: number;
      /** stream a body this large (a receiver that answers far more than anyone reads) */
      bodyBytes?: number;
    }
  | 'timeout' // never answer; the connection stays open until the receiver closes
  | 'reset'; // destroy the connection without an answer

export interface TestReceiver {
  url: string;
  receipts: Receipt[];
  /** Number of TCP connections accepted (a refused delivery must not even connect). */
  connections(): number;
  /** The most requests that were open (received, not yet answered) at the same time. */
  maxConcurrent(): number;
  /** Answers for the next requests, in order; afterwards `fallback` applies. */
  script(...answers: Answer[]): void;
  /** Resolves when at least `count` requests arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<Receipt[]>;
  close(): Promise<void>;
}

export async function startReceiver(fallback: Answer = 200, host = '127.0.0.1'): Promise<TestReceiver> {
  const receipts: Receipt[] = [];
  const queue: Answer[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let open = 0;
  let maxOpen = 0;
  let waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    maxOpen = Math.max(maxOpen, ++open);
    res.on('close', () => open--);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receipts.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), at: performance.now() });
      answer(queue.shift() ?? fallback, res, req.socket);
      for (const wake of waiters) wake();
    });
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    receipts,
    connections: () => connections,
    maxConcurrent: () => maxOpen,
    script: (...answers) => queue.push(...answers),
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (receipts.length < count) return;
          clearTimeout(timer);
          waiters = waiters.filter((waiter) => waiter !== check);
          resolve(receipts);
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((waiter) => waiter !== check);
          reject(new Error(`receiver got ${receipts.length} of ${count} requests within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(check);
        check();
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

function answer(how: Answer, res: ServerResponse, socket: Socket): void {
  if (how === 'timeout') return;
  if (how === 'reset') {
    socket.resetAndDestroy();
    return;
  }
  const { status, headers = {}, delayMs = 0, bodyBytes = 0 } = typeof how === 'number' ? { status: how } : how;
  const send = () => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    if (bodyBytes === 0) {
      res.end(`answer ${status}`);
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let left = bodyBytes;
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        left -= chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
  if (delayMs > 0) setTimeout(send, delayMs);
  else send();
}
