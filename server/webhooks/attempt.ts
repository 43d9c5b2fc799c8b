// One delivery attempt over HTTP and what it came to: the signed POST of the stored body, and
// the judgement of its answer (delivered, endpoint gone, retry later, or exhausted).
import { type Agent, request } from 'undici';
import { deliveryHeaders } from '../../common/delivery-headers.ts';
import type { Mode } from '../config.ts';
import type { ClaimedDelivery } from '../store/store.ts';
import type { AttemptOutcome, FailureCause } from './outcomes.ts';
import { parseRetryAfter, retryDelayMs } from './schedule.ts';
import { urlRefusal } from './ssrf.ts';

/** How much of a receiver's answer is read (and thrown away) so the connection can be reused. */
const RESPONSE_BODY_LIMIT = 64 * 1024;

/** Abort reason: the attempt ran out of time. */
export class AttemptTimeout extends Error {
  override name = 'AttemptTimeout';
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/** The URL itself is not allowed (scheme or literal address): a failed attempt, never a request. */
class DeliveryRefused extends Error {
  override name = 'DeliveryRefused';
}

export async function send(
  delivery: ClaimedDelivery,
  { mode, agent, signal }: { mode: Mode; agent: Agent; signal: AbortSignal },
): Promise<{ status: number; retryAfter: string | null }> {
  // The literal-address and scheme check; names are checked by the agent's lookup on the
  // address the socket really connects to.
  const refusal = urlRefusal(delivery.url, mode);
  if (refusal) throw new DeliveryRefused(refusal);
  const headers = deliveryHeaders({
    body: delivery.body,
    eventType: delivery.eventType,
    deliveryId: delivery.id,
    webhookId: delivery.webhookId,
    secret: delivery.secret,
    previousSecret: delivery.previousSecret,
  });
  // undici's request() never follows redirects, so a 3xx comes back as a failed attempt.
  const response = await request(delivery.url, { method: 'POST', headers, body: delivery.body, signal, dispatcher: agent });
  await response.body.dump({ limit: RESPONSE_BODY_LIMIT, signal }).catch(() => undefined);
  const retryAfter = response.headers['retry-after'];
  return { status: response.statusCode, retryAfter: typeof retryAfter === 'string' ? retryAfter : null };
}

export interface Judgement {
  attemptNumber: number;
  /** Epoch ms when the attempt ended. */
  at: number;
  retryScale: number;
}

export function judgeAnswer(status: number, retryAfter: string | null, judgement: Judgement): AttemptOutcome {
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === 410) return { kind: 'gone', status };
  return failure(status, { cause: 'http', error: `HTTP ${status}` }, retryAfter, judgement);
}

/** An attempt that got no answer: `reason` is why (the abort reason or the request's error). */
export function judgeError(reason: unknown, judgement: Judgement): AttemptOutcome {
  return failure(null, describeError(reason), null, judgement);
}

function failure(
  status: number | null,
  { cause, error }: { cause: FailureCause; error: string },
  retryAfter: string | null,
  { attemptNumber, at, retryScale }: Judgement,
): AttemptOutcome {
  const delay = retryDelayMs(attemptNumber, { scale: retryScale, retryAfterMs: parseRetryAfter(retryAfter, at) });
  return delay === null ? { kind: 'exhausted', status, cause, error } : { kind: 'retry', status, cause, error, dueAt: at + delay };
}

// A short reason for the delivery row and the log; never the URL (it may carry a token).
function describeError(error: unknown): { cause: FailureCause; error: string } {
  if (error instanceof AttemptTimeout) return { cause: 'timeout', error: error.message };
  if (error instanceof DeliveryRefused) return { cause: 'refused', error: `refused: ${error.message}` };
  const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const blocked = err.code === 'ERR_SSRF_BLOCKED' ? err : err.cause?.code === 'ERR_SSRF_BLOCKED' ? err.cause : undefined;
  if (blocked) return { cause: 'refused', error: `refused: ${blocked.message}` };
  const code = err.code ?? err.cause?.code;
  return { cause: 'connection', error: code ? `connection failed (${code})` : `connection failed (${err.message ?? String(error)})` };
}
