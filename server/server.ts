// The public factory tests and the process entry use: an app listening on a port, background
// workers started with it, and a close() that drains requests before closing the database.
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AppDeps, createApp, type SecmonApp } from './app.ts';
import type { Config } from './config.ts';
import { answerClientError } from './http/client-errors.ts';
import { describeDatabase, isPostgresUrl } from './store/open.ts';
import { holdDatabase } from './store/sqlite/writer-lock.ts';
import { deliveryWorker } from './webhooks/dispatcher.ts';

/** A worker that runs beside the HTTP server (for example the webhook dispatcher). */
export interface BackgroundWorker {
  start(): void;
  /** Stops claiming work and waits (boundedly) for work in flight; the database is still open. */
  stop(): Promise<void>;
}

export interface ServerDeps extends AppDeps {
  /** Workers started after the server listens and stopped before the database closes. */
  workers?: ((app: SecmonApp) => BackgroundWorker)[];
}

export interface RunningServer {
  url: string;
  port: number;
  app: SecmonApp;
  close(): Promise<void>;
}

const DRAIN_TIMEOUT_MS = 10_000;

export async function startServer(config: Config, deps: ServerDeps = {}): Promise<RunningServer> {
  // One server per SQLite file, taken before the file is opened: the dispatcher's start-up resend
  // is safe only under it. PostgreSQL is made for several instances and needs no such hold.
  const embedded = deps.store === undefined && config.database !== ':memory:' && !isPostgresUrl(config.database);
  const lock = embedded ? holdDatabase(config.database) : undefined;
  let app: SecmonApp;
  try {
    app = await createApp(config, deps);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = config.http;
  let closing: Promise<void> | undefined;
  const server: Server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      // Node looks for overdue requests on this interval (30 s by default, far past a 10 s limit).
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeoutMs / 10))),
    },
    (req, res) => {
      if (closing) res.setHeader('Connection', 'close');
      else {
        unanswered.add(res);
        res.on('close', () => unanswered.delete(res));
      }
      app.express(req, res);
    },
  );
  // Once shutdown begins, every response not yet sent says `Connection: close`, so clients stop
  // reusing the connection instead of racing its closing with their next request.
  const unanswered = new Set<ServerResponse>();
  const sayClose = () => {
    for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  server.on('clientError', answerClientError);
  server.listen(config.port, config.host);
  try {
    await once(server, 'listening');
  } catch (error) {
    await app.store.close();
    lock?.release();
    throw error;
  }
  const workers = (deps.workers ?? [deliveryWorker()]).map((make) => make(app));
  for (const worker of workers) worker.start();
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  // The pid lets whoever started the process know the answer on this URL is its own.
  app.logger.info(
    { url, pid: process.pid, mode: config.mode, db: describeDatabase(config.database), store: app.store.engine },
    'server listening',
  );

  const close = () =>
    (closing ??= (async () => {
      app.stopAccepting();
      sayClose();
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS);
      await drained;
      clearTimeout(timer);
      await Promise.all(workers.map((worker) => worker.stop()));
      await app.store.close();
      lock?.release();
      app.logger.info('server closed');
    })());
  return { url, port, app, close };
}
