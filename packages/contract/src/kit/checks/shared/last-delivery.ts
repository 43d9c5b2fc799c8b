// `last_delivery` after the kit's receiver answered a retry 2xx, judged once the evidence can no
// longer change. Delivery is at least once: a 2xx can be lost on its way back (a proxy answering
// 503 for it), and the service then sends the same delivery again. Such a retry after the kit's
// 2xx means the acknowledgement was lost, so the kit waits for that retry's outcome instead of
// judging the attempt whose answer the service never got.

import { setTimeout as sleep } from 'node:timers/promises';
import type { KitContext } from '../../context.ts';
import type { Check } from '../../failure.ts';
import type { Delivery } from '../../receiver.ts';
import { crudNamed, type Json, type Sink } from './rule-support.ts';

/** How long the kit reads last_delivery after its receiver's latest answer before it asks whether a retry is coming. */
const SETTLE_MS = 3000;
const POLL_MS = 100;

/** The waits of the document's retry schedule ("retried after waits of about 5 s, 5 min, …"), in ms. */
export function retryWaits(ctx: KitContext): number[] {
  const text = /retried after waits of about ([^.]*?)(?:,? each counted|\.)/.exec(ctx.model.doc.info.description ?? '')?.[1] ?? '';
  const unit: Record<string, number> = { s: 1000, min: 60_000, h: 3_600_000 };
  return [...text.matchAll(/(\d+) (s|min|h)\b/g)].map((m) => Number(m[1]) * unit[m[2]!]!);
}

export interface LastDeliveryProbe {
  failing: Sink & { answered: number[] };
  hookId: string;
  /** The kit's attempts of the one delivery it failed on purpose, copies dropped. */
  attempts(): Delivery[];
  /** How long a further attempt may take to come: the schedule's next wait after `made` attempts. */
  nextRetryWithinMs(made: number): number;
}

/** The rules the state a webhook shows after its retries breaks. */
type LastDeliveryRule = 'schema.LastDelivery.1' | 'schema.LastDelivery.3' | 'delivery-and-retries.1' | 'response.ReceiverAccepted.1';

/**
 * Reads last_delivery until it shows the receiver's latest answer (a 2xx) or SETTLE_MS pass. When
 * it does not, and another attempt of the delivery comes within the schedule's next wait, that
 * attempt's outcome is awaited the same way; the verdict is on the last attempt that came.
 */
export async function judgeLastDelivery(
  ctx: KitContext,
  check: Check<LastDeliveryRule>,
  probe: LastDeliveryProbe,
): Promise<string | undefined> {
  const webhooks = crudNamed(ctx, 'webhooks');
  let lost = 0;
  for (;;) {
    const last = await settle(ctx, check, probe);
    if (last?.succeeded === true) return lost > 0 ? `${lost} acknowledgement(s) lost; the retries after them awaited` : undefined;
    const made = probe.attempts().length;
    const next = await probe.failing.waitFor(
      () => probe.attempts().length > made,
      'another attempt after the kit answered 2xx',
      probe.nextRetryWithinMs(made),
    );
    if (!next.met)
      check.fail({
        at: webhooks.read,
        rule: ['schema.LastDelivery.1', 'schema.LastDelivery.3', 'delivery-and-retries.1', 'response.ReceiverAccepted.1'],
        observed: `after retries answered 204, last_delivery still reads ${JSON.stringify(last)} (polled ${SETTLE_MS / 1000} s, and no further attempt came within ${(next.waitedMs / 1000).toFixed(1)} s, as one would after a lost acknowledgement)`,
      });
    lost++;
  }
}

/** Polls last_delivery for SETTLE_MS; it must say succeeded exactly for a 2xx throughout. */
async function settle(ctx: KitContext, check: Check<LastDeliveryRule>, probe: LastDeliveryProbe): Promise<Json | undefined> {
  const webhooks = crudNamed(ctx, 'webhooks');
  const until = Date.now() + SETTLE_MS;
  let last: Json | undefined;
  do {
    last = ((await ctx.send(webhooks.read, { id: probe.hookId })).json as Json).last_delivery as Json | undefined;
    const code = Number(last?.status_code);
    if (last && last.succeeded !== (code >= 200 && code < 300))
      check.fail({
        at: webhooks.read,
        rule: 'schema.LastDelivery.3',
        observed: `last_delivery is ${JSON.stringify(last)}: succeeded must be true exactly for a 2xx`,
      });
    if (last?.succeeded === true && probe.failing.answered.at(-1) === code) return last;
    await sleep(POLL_MS);
  } while (Date.now() < until);
  return last;
}
