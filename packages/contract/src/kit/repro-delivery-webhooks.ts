// The run's webhook writes as a delivery replay sends them: pointed at the replay's own receiver
// and given its secret, written as stand-ins the replay replaces at run time; and which of the
// receiver's paths it judges.
import type { Exchange } from './http.ts';

// Stand-ins written into the webhook writes, replaced by the replay's receiver URL and secret.
const RECEIVER_URL = 'secmon-replay-receiver-url';
const SECRET = 'secmon-replay-secret';
export const RECEIVER_STAND_INS = [
  [RECEIVER_URL, 'RECEIVER_URL'],
  [SECRET, 'WEBHOOK_SECRET'],
] as const;
const WEBHOOK_WRITE = /\/webhooks(\/[^/?]+)?$/;

/** A webhook create or replace pointed at the replay's receiver (same path) with its secret, where the run gave one. */
export function retargeted(exchange: Exchange): Exchange {
  const { method, url, body } = exchange.request;
  if ((method !== 'POST' && method !== 'PUT') || !WEBHOOK_WRITE.test(new URL(url).pathname)) return exchange;
  const json = parsed(body);
  if (typeof json.url !== 'string' || !URL.canParse(json.url)) return exchange;
  const edited = {
    ...json,
    url: `${RECEIVER_URL}${new URL(json.url).pathname}`,
    ...(typeof json.secret === 'string' ? { secret: SECRET } : {}),
  };
  return { ...exchange, request: { ...exchange.request, body: JSON.stringify(edited) } };
}

/** A request body's JSON object; empty when it is none (a body the kit sent malformed on purpose). */
function parsed(body: string | undefined): { url?: unknown; secret?: unknown } {
  try {
    const json = JSON.parse(body ?? '') as unknown;
    return json && typeof json === 'object' && !Array.isArray(json) ? json : {};
  } catch {
    return {};
  }
}

export const isWebhookCreate = (exchange: Exchange) =>
  exchange.request.method === 'POST' && /\/webhooks$/.test(new URL(exchange.request.url).pathname);

/** The receiver paths whose deliveries are judged: the signed webhooks' (all the run's webhooks when none was signed). */
export function watchedPaths(exchanges: readonly Exchange[]): string[] {
  const writes = exchanges.filter(isWebhookCreate).flatMap((e) => {
    const { url, secret } = parsed(e.request.body);
    return typeof url === 'string' && url.startsWith(RECEIVER_URL)
      ? [{ path: url.slice(RECEIVER_URL.length), signed: secret === SECRET }]
      : [];
  });
  const signed = writes.filter((w) => w.signed);
  return (signed.length > 0 ? signed : writes).map((w) => w.path);
}
