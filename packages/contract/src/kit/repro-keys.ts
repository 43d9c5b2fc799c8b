// Fresh idempotency keys for a replay. A target keeps a key's first answer (24 hours, the document
// says) and answers a later request with that key from it, or with 409 for another body: a replay
// that sent the keys the run sent would, run a second time or after the kit's own run, get stored
// answers instead of the target's behaviour now. So each distinct Idempotency-Key the run sent
// becomes a variable the replay gives a new value at every run; requests that shared a key (a
// retry, a key reused with another body) share its new value, and stay the pair the rule is about.
import type { Exchange } from './http.ts';

const PREFIX = 'kit-replay-';

/**
 * Each distinct Idempotency-Key the exchanges sent, with the variable a replay makes fresh for it;
 * longest first, so a key that contains another is replaced whole.
 */
export function idempotencyKeysOf(exchanges: readonly Exchange[]): (readonly [literal: string, variable: string])[] {
  const sent = exchanges.flatMap((exchange) =>
    Object.entries(exchange.request.headers).flatMap(([name, value]) => (name.toLowerCase() === 'idempotency-key' && value ? [value] : [])),
  );
  return [...new Set(sent)].map((key, index) => [key, `IDEMPOTENCY_KEY_${index + 1}`] as const).sort(([a], [b]) => b.length - a.length);
}

/** Shell lines giving each key variable a new value (node makes it: the script needs node anyway). */
export function shellFreshKeys(variables: readonly string[]): string[] {
  if (variables.length === 0) return [];
  return [
    "# Each Idempotency-Key is new at every run: a target keeps a key's first answer and would replay it.",
    ...variables.map((variable) => `${variable}=${PREFIX}$(node -e 'process.stdout.write(require("crypto").randomUUID())')`),
  ];
}

/** A JavaScript expression for a new key, where `crypto` is node:crypto. */
export const moduleFreshKey = `${JSON.stringify(PREFIX)} + crypto.randomUUID()`;

/**
 * The .http file's pre-request script giving each key variable a new value, once, before the first
 * request (httpyac and JetBrains run it; a `{{$uuid}}` in each request would give each its own key).
 */
export function httpFreshKeys(variables: readonly string[]): string[] {
  if (variables.length === 0) return [];
  return [
    '< {%',
    ...variables.map((variable) => `  client.global.set(${JSON.stringify(variable)}, ${JSON.stringify(PREFIX)} + $random.uuid);`),
    '%}',
  ];
}
