// Starts and stops the Prism mock (`prism mock generated/openapi.yaml`) as a child process: picks a
// free port, waits until it answers HTTP, keeps its output for diagnostics and never leaves it
// running. By default it sits behind the contract shim (./contract-shim.ts), which fixes what Prism
// gets wrong about this contract. `npm run mock`, the mock tests, the contract kit and the
// benchmarks all start it here.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledYamlPath } from '../../../common/document-files.ts';
import { startShim } from './contract-shim.ts';

export interface MockOptions {
  /** 0 or undefined: a free ephemeral port. */
  port?: number;
  /** Loopback unless told otherwise. */
  host?: string;
  /** Generate responses from the schemas (json-schema-faker) instead of the named examples. */
  dynamic?: boolean;
  /** Seed of the dynamic generator, so "random" data is the same on every run. */
  seed?: string;
  /** The document to serve; the bundle by default. */
  document?: string;
  /** Give up (and stop the child) if Prism does not answer within this many ms. */
  readyTimeoutMs?: number;
  /** After SIGTERM, wait this long before SIGKILL. */
  stopTimeoutMs?: number;
  /** Called with every output line of Prism as it arrives (the CLI streams them). */
  onOutput?: (line: string) => void;
  /** Called once per request the shim answered (method, path, status, ms). */
  onAnswer?: (answer: { method: string; path: string; status: number; ms: number }) => void;
  /**
   * Put the contract shim in front of Prism (default true). `false` serves bare Prism, for
   * measuring Prism itself or seeing exactly what it does.
   */
  shim?: boolean;
}

export interface MockServer {
  /** Base URL without a trailing slash, for example `http://127.0.0.1:4010`. */
  url: string;
  port: number;
  /** Prism's own URL: the same as `url` without the shim, an internal port with it. */
  prismUrl: string;
  pid: number;
  /** Milliseconds from spawn until Prism answered its first HTTP request. */
  startupMs: number;
  /** Prism's output so far (stdout and stderr, newest last, bounded). */
  output(): string;
  /** SIGTERM, then SIGKILL after `stopTimeoutMs`; resolves once the process has exited. Idempotent. */
  stop(): Promise<void>;
}

export const DEFAULT_SEED = 'secmon';
const DEFAULT_HOST = '127.0.0.1';
/** Output kept: the first lines (start-up, document errors) and the most recent ones. */
const HEAD_LINES = 50;
const TAIL_LINES = 400;
const POLL_INTERVAL_MS = 50;
// The mock accepts any bearer token; sending one keeps the readiness probe out of the error log.
const READINESS_AUTH = { authorization: 'Bearer readiness-probe' };
/** Attempts when we picked the port ourselves and another process took it before Prism bound it. */
const PORT_ATTEMPTS = 3;

const prismBin = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
// The preloads are this module's siblings: `.ts` here, `.js` in the published package's dist/.
const sibling = (name: string) => fileURLToPath(new URL(`./${name}${extname(import.meta.url)}`, import.meta.url));
/** Preload (`node --import`) that makes a child process exit when its parent dies, however it dies. */
export const exitWithParent = sibling('exit-with-parent');
const seedFaker = sibling('seed-faker');

export class MockStartError extends Error {
  override name = 'MockStartError';
}

/** Starts Prism (and the shim) and resolves once it answers HTTP. Rejects, with Prism's output, if it cannot. */
export async function startMock(options: MockOptions = {}): Promise<MockServer> {
  const started = performance.now();
  if (options.shim === false) return startPrism(options.port, options, started);
  // The shim binds the requested port before Prism starts, so a port in use is reported at once.
  let prismUrl!: (url: string) => void;
  const shim = await startShim({
    target: new Promise<string>((resolve) => (prismUrl = resolve)),
    host: options.host ?? DEFAULT_HOST,
    port: options.port ?? 0,
    ...(options.dynamic ? { dynamic: true } : {}),
    ...(options.onAnswer ? { onAnswer: options.onAnswer } : {}),
  }).catch((error: unknown) => {
    throw new MockStartError(`cannot listen on ${options.host ?? DEFAULT_HOST}:${options.port ?? 0}: ${(error as Error).message}`);
  });
  try {
    const prism = await startPrism(0, options, started);
    prismUrl(prism.url);
    const stop = once(async () => {
      await shim.close();
      await prism.stop();
    });
    return { ...prism, url: shim.url, port: shim.port, startupMs: Math.round(performance.now() - started), stop };
  } catch (error) {
    await shim.close();
    throw error;
  }
}

async function startPrism(requestedPort: number | undefined, options: MockOptions, started: number): Promise<MockServer> {
  for (let attempt = 1; ; attempt++) {
    const port = requestedPort || (await freePort(options.host ?? DEFAULT_HOST));
    try {
      return await startOn(port, options, started);
    } catch (error) {
      const portTaken = error instanceof MockStartError && /EADDRINUSE/.test(error.message);
      if (requestedPort || !portTaken || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

async function startOn(port: number, options: MockOptions, started: number): Promise<MockServer> {
  const host = options.host ?? DEFAULT_HOST;
  const args = [
    '--import',
    exitWithParent,
    ...(options.dynamic ? ['--import', seedFaker] : []),
    prismBin,
    'mock',
    options.document ?? bundledYamlPath,
    '--port',
    String(port),
    '--host',
    host,
  ];
  if (options.dynamic) args.push('--dynamic', '--seed', options.seed ?? DEFAULT_SEED);

  // process.execPath: the Node running us (the pinned Node 24), not whatever `node` is on PATH.
  const child = spawn(process.execPath, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  const head: string[] = [];
  const tail: string[] = [];
  let dropped = 0;
  // Prism's own "listening" line, on our port: the answer that follows is surely this child's.
  let listening = false;
  const record = (chunk: string) => {
    for (const line of chunk.split('\n')) {
      if (line.trim() === '') continue;
      if (new RegExp(`Prism is listening on \\S+:${port}\\b`).test(line)) listening = true;
      if (head.length < HEAD_LINES) head.push(line);
      else if (tail.push(line) > TAIL_LINES) {
        tail.shift();
        dropped++;
      }
      options.onOutput?.(line);
    }
  };
  child.stdout?.setEncoding('utf8').on('data', record);
  child.stderr?.setEncoding('utf8').on('data', record);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const output = () => [...head, ...(dropped ? [`… ${dropped} lines omitted …`] : []), ...tail].join('\n');

  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const stop = once(() => terminate(child, exited, options.stopTimeoutMs ?? 5_000));
  try {
    await waitUntilReady(url, child, exited, () => listening, options.readyTimeoutMs ?? 30_000);
  } catch (error) {
    await stop();
    throw new MockStartError(`${(error as Error).message}\n--- prism output ---\n${output()}`);
  }
  return { url, port, prismUrl: url, pid: child.pid ?? -1, startupMs: Math.round(performance.now() - started), output, stop };
}

/**
 * Waits for the child's own "listening" line (a port answering proves nothing: another process may
 * hold it), then until an HTTP answer arrives (any status proves Prism is serving).
 */
async function waitUntilReady(url: string, child: ChildProcess, exited: Promise<void>, listening: () => boolean, timeoutMs: number) {
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (hasExited) throw new Error(`prism exited before it was ready (code ${child.exitCode}, signal ${child.signalCode})`);
    if (!listening()) {
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
      continue;
    }
    try {
      const response = await fetch(`${url}/v1/policies`, { headers: READINESS_AUTH, signal: AbortSignal.timeout(1_000) });
      await response.body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  }
  throw new Error(`prism did not answer on ${url} within ${timeoutMs} ms`);
}

async function terminate(child: ChildProcess, exited: Promise<void>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const graceful = await Promise.race([
    exited.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
  ]);
  clearTimeout(timer);
  if (!graceful) {
    child.kill('SIGKILL');
    await exited;
  }
  child.stdin?.destroy();
}

/** An ephemeral port that was free a moment ago (the caller retries if it is taken meanwhile). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let pending: Promise<void> | undefined;
  return () => (pending ??= fn());
}
