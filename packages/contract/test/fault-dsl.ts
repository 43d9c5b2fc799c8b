// Faults as one-liners over the fault proxy: rewrite a JSON field, a header or a status of the
// answers that match, rewrite what a request carries, drop or duplicate deliveries, delay
// answers; `all` combines them. A proof that a check bites is then a few declarative lines. Each
// kind lives in fault-dsl/ by what it breaks; this module is where proofs take them from.

import type { Delivered } from './fault-dsl/match.ts';
import type { Fault } from './fault-proxy.ts';

export * from './fault-dsl/answers.ts';
export * from './fault-dsl/deliveries.ts';
export * from './fault-dsl/limits.ts';
export type { Match } from './fault-dsl/match.ts';
export * from './fault-dsl/remembered.ts';
export * from './fault-dsl/requests.ts';

/** Sends response bodies in chunks (Transfer-Encoding: chunked). */
export function chunkedAnswers(): Fault {
  return { chunked: true };
}

/**
 * Several faults at once: request rewrites in order, response rewrites in order, delivery rewrites
 * in order (a dropped delivery goes no further), the receiver's answer rewritten by each in order,
 * and the delivery variations any of them asks for (the first one's delay).
 */
export function all(...faults: Fault[]): Fault {
  const delivered = faults.flatMap((f) => (f.delivery ? [f.delivery.bind(f)] : []));
  const answered = faults.flatMap((f) => (f.deliveryAnswer ? [f.deliveryAnswer.bind(f)] : []));
  const delayed = faults.find((f) => f.deliveryDelayMs)?.deliveryDelayMs;
  return {
    path: (method, path) => faults.reduce((p, f) => f.path?.(method, p) ?? p, path),
    headers: (headers) => faults.reduce((h, f) => f.headers?.(h) ?? h, headers),
    request: (method, path, body) => faults.reduce((b, f) => f.request?.(method, path, b) ?? b, body),
    response: async (request, response, upstream) => {
      let current = response;
      for (const f of faults) current = (await f.response?.(request, current, upstream)) ?? current;
      return current;
    },
    ...(delivered.length > 0
      ? {
          delivery: (headers, body) =>
            delivered.reduce<Delivered | undefined>((d, rewrite) => d && rewrite(d.headers, d.body), { headers, body }),
        }
      : {}),
    ...(answered.length > 0 ? { deliveryAnswer: (answer, delivery) => answered.reduce((a, rewrite) => rewrite(a, delivery), answer) } : {}),
    ...(delayed ? { deliveryDelayMs: delayed } : {}),
    ...(faults.some((f) => f.duplicateDeliveries) ? { duplicateDeliveries: true } : {}),
    ...(faults.some((f) => f.chunked) ? { chunked: true } : {}),
  };
}
