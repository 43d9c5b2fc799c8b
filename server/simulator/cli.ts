// `npm run trigger -- <event-type> [--field value ...]`: asks a running reference server (in
// development mode) to emit an event through its simulator, like `stripe trigger`. Not part of
// the /v1 contract.
import { parseArgs } from 'node:util';
import { EVENT_TYPES, isEventType } from '../../packages/api/src/events.ts';
import { DEFAULT_DEV_KEYS, parseApiKeys } from '../config.ts';
import { SIMULATOR_PATH } from './router.ts';

const DEFAULT_URL = 'http://127.0.0.1:3000';
const DEFAULT_KEY = parseApiKeys(DEFAULT_DEV_KEYS).find((key) => key.scopes.has('write'))!.token;

const USAGE = `Usage: npm run trigger -- <event-type> [--webhook <whk_id>] [--field value ...]

Makes the running SecMon reference server (development mode) emit an event with realistic data
to every enabled webhook subscribed to it, or with --webhook only to that webhook (which must be
enabled and subscribe to the event type). Not part of the /v1 API.

Event types: ${EVENT_TYPES.join(', ')}

Fields override the generated data: --severity critical, --hostname web-01, and dotted paths for
nested ones (--new_findings.critical 2). --timestamp sets the event's timestamp. Values that are
JSON numbers, true, false or null are sent as such; quote to force a string: --title '"404"'.

Environment: SECMON_URL (default ${DEFAULT_URL}), SECMON_API_KEY (default: the development key).

Examples: npm run trigger -- scan.completed --outcome failed --new_findings.high 3
          npm run trigger -- device.connected --webhook whk_01jbz4c8d2e6f0g4h8j2k6m0n4`;

export interface TriggerRequest {
  event: string;
  /** Only this webhook gets the event. */
  webhook_id?: string;
  timestamp?: unknown;
  data: Record<string, unknown>;
}

/** Turns `<event-type> --a.b value ...` into the simulator's request body. Throws on bad usage. */
export function parseTriggerArgs(argv: readonly string[]): TriggerRequest {
  const [type, ...rest] = argv;
  if (type === undefined || type.startsWith('-')) throw new UsageError('Name an event type first.');
  if (!isEventType(type)) throw new UsageError(`Unknown event type '${type}'.`);
  const request: TriggerRequest = { event: type, data: {} };
  for (let index = 0; index < rest.length; index += 2) {
    const flag = rest[index]!;
    const value = rest[index + 1];
    if (!/^--[A-Za-z_][\w.]*$/.test(flag) || value === undefined) throw new UsageError(`Expected '--field value', got '${flag}'.`);
    const path = flag.slice(2).split('.');
    if (path.length === 1 && path[0] === 'timestamp') request.timestamp = coerce(value);
    else if (path.length === 1 && path[0] === 'webhook') request.webhook_id = value;
    else setPath(request.data, path, coerce(value));
  }
  return request;
}

function coerce(value: string): unknown {
  if (/^(-?\d+(\.\d+)?|true|false|null|"(?:[^"\\]|\\.)*")$/.test(value)) return JSON.parse(value) as unknown;
  return value;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    node = typeof next === 'object' && next !== null ? (next as Record<string, unknown>) : (node[key] = {});
  }
  node[path.at(-1)!] = value;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Runs the CLI; resolves to the exit code (0 ok, 1 the server refused or is unreachable, 2 usage). */
export async function runTrigger(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { help: { type: 'boolean', short: 'h' } },
    strict: false,
    allowPositionals: true,
  });
  if (values.help === true || positionals.length === 0) {
    io.out(USAGE);
    return values.help === true ? 0 : 2;
  }
  let body: TriggerRequest;
  try {
    body = parseTriggerArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  const base = (env.SECMON_URL || DEFAULT_URL).replace(/\/+$/, '');
  let response: Response;
  try {
    response = await fetch(`${base}${SIMULATOR_PATH}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.SECMON_API_KEY || DEFAULT_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    io.err(`Cannot reach the SecMon server at ${base} (${(error as Error).cause ?? (error as Error).message}). Is it running (npm start)?`);
    return 1;
  }
  const text = await response.text();
  if (response.status !== 202) {
    io.err(describeFailure(response.status, text, base));
    return 1;
  }
  const { event, deliveries } = JSON.parse(text) as { event: unknown; deliveries: number };
  io.out(JSON.stringify(event, null, 2));
  io.out(
    deliveries === 0
      ? `Emitted ${body.event}, but no enabled webhook subscribes to it: nothing will be sent.`
      : `Emitted ${body.event}: ${deliveries} ${deliveries === 1 ? 'delivery' : 'deliveries'} queued${body.webhook_id ? ` for ${body.webhook_id} only` : ''}.`,
  );
  return 0;
}

function describeFailure(status: number, text: string, base: string): string {
  if (status === 404) return `The server at ${base} has no simulator: it runs only in development mode (SECMON_MODE=development).`;
  try {
    const problem = JSON.parse(text) as { title?: string; detail?: string; errors?: { pointer: string; message: string }[] };
    const details = (problem.errors ?? []).map((error) => `\n  ${error.pointer}: ${error.message}`).join('');
    return `${status} ${problem.title ?? ''}: ${problem.detail ?? ''}${details}`;
  } catch {
    return `${status}: ${text.slice(0, 500)}`;
  }
}

if (import.meta.main) {
  process.exitCode = await runTrigger(process.argv.slice(2), process.env, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
}
