// Raising the events no operation causes (devices connecting, scans completing) on any
// implementation: through the documented test-support route `POST /_simulator/events`, which the
// reference server has in development mode, or through a command the operator gives
// (`--trigger-command`) for implementations that raise events another way. Neither is part of the
// /v1 contract.
import { spawn } from 'node:child_process';
import type { KitContext } from './context.ts';
import { truncate } from './verify.ts';

/** The event types the kit causes through /v1 operations; the others need the test-support interface. */
export const API_CAUSED_EVENTS = ['finding.created', 'compliance.changed', 'finding.resolved'] as const;

/** Whether only the test-support route or a trigger command can cause `event` (no operation does). */
export const isRaisable = (event: string) => !(API_CAUSED_EVENTS as readonly string[]).includes(event);

/** The simulator route (the document's test-support section); not part of the /v1 contract. */
export const SIMULATOR_PATH = '/_simulator/events';

/** How long a trigger command may run before the kit gives up on it. */
const COMMAND_TIMEOUT_MS = 60_000;

export interface RaiseRequest {
  event: string;
  /** The kit's webhook: the only one the event needs to reach. */
  webhookId: string;
  /** Fields of the event's `data` the event must carry, so the kit knows its own delivery. */
  data: Record<string, unknown>;
}

export type RaiseOutcome =
  /** Raised; how, for messages. */
  | { raised: string }
  /** This target offers no way the kit knows (no simulator, no command given). */
  | { cannot: string }
  /** The way exists but refused or failed: a failure, with what it answered. */
  | { refused: string };

export function raiseEvent(ctx: KitContext, request: RaiseRequest): Promise<RaiseOutcome> {
  const command = ctx.options.triggerCommand;
  return command ? runTriggerCommand(command, ctx.options.baseUrl, request) : callSimulator(ctx, request);
}

async function callSimulator(ctx: KitContext, { event, webhookId, data }: RaiseRequest): Promise<RaiseOutcome> {
  const body = { event, data, webhook_id: webhookId };
  const exchange = await ctx.http.send({ method: 'POST', path: SIMULATOR_PATH, body });
  const sent = `POST ${SIMULATOR_PATH} ${JSON.stringify(body)}`;
  if (exchange.status === 404 || exchange.status === 405)
    return {
      cannot: `the target has no simulator (POST ${SIMULATOR_PATH} answered ${exchange.status}) and no --trigger-command was given`,
    };
  if (exchange.status >= 300) return { refused: `${sent} answered ${exchange.status}: ${truncate(exchange.text, 300)}` };
  return { raised: sent };
}

/** `'…'` for a POSIX shell: the value cannot break out of its argument. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command with `{event}`, `{webhook_id}` and `{data}` replaced (each shell-quoted), run by the
 * shell with the same values in SECMON_EVENT, SECMON_WEBHOOK_ID and SECMON_EVENT_DATA (JSON), and
 * the target in SECMON_BASE_URL. Exit 0 means raised.
 */
export function triggerInvocation(
  command: string,
  baseUrl: string,
  { event, webhookId, data }: RaiseRequest,
): { line: string; env: Record<string, string> } {
  const json = JSON.stringify(data);
  const values: Record<string, string> = { event, webhook_id: webhookId, data: json };
  const line = command.replace(/\{(event|webhook_id|data)\}/g, (_, name: string) => shellQuote(values[name]!));
  return { line, env: { SECMON_EVENT: event, SECMON_WEBHOOK_ID: webhookId, SECMON_EVENT_DATA: json, SECMON_BASE_URL: baseUrl } };
}

async function runTriggerCommand(command: string, baseUrl: string, request: RaiseRequest): Promise<RaiseOutcome> {
  const { line, env } = triggerInvocation(command, baseUrl, request);
  const child = spawn(line, { shell: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
  const code = await new Promise<number | string>((resolve) => {
    child.on('error', (error) => resolve(error.message));
    child.on('close', (status, signal) => resolve(status ?? signal ?? 'unknown'));
  }).finally(() => clearTimeout(timer));
  if (code === 0) return { raised: `--trigger-command for ${request.event}` };
  return {
    refused: `--trigger-command for ${request.event} (${line}) ended with ${String(code)}${output ? `: ${truncate(output.trim(), 300)}` : ''}`,
  };
}
