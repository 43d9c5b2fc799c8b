// Deliveries on the kit's webhooks judged against the events the model predicted: an event the
// kit caused reaches exactly the webhooks that were enabled and subscribed (or targeted) when it
// happened, with the data the change fixes; duplicates of one delivery are legal (at least once).
// A delivery of an event the kit did not cause (another client's) is not judged.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RuleId } from '../rules/catalogue.ts';
import { eventsFor } from './causes.ts';
import type { Json } from './facts.ts';
import type { Difference, ModelState, PredictedEvent } from './state.ts';

export interface SeenDelivery {
  webhookId: string;
  deliveryId: string;
  type: string;
  data: Json;
  raw: Buffer;
  /** The `X-Service-Signature` header, if any. */
  signature?: string;
}

/** Whether a delivery is the kit's: its identifying data names something the model knows of. */
const identifying = (data: Json, ids: Set<string>) =>
  [data.finding_id, data.policy_id, data.device_id].some((id) => typeof id === 'string' && ids.has(id));

const sameEvent = (event: PredictedEvent, delivery: SeenDelivery) =>
  event.type === delivery.type &&
  Object.entries(event.data).every(([field, value]) => JSON.stringify(delivery.data[field]) === JSON.stringify(value));

/** The ids whose events count as the kit's: its findings and policies (live or deleted) and the devices it raised events for. */
export function kitIds(state: ModelState): Set<string> {
  const resources = [...state.known.values()].filter((known) => known.resource !== 'webhooks').map((known) => known.id);
  const devices = state.events.flatMap((event) =>
    event.targeted !== undefined && typeof event.data.device_id === 'string' ? [event.data.device_id] : [],
  );
  return new Set([...resources, ...state.deleted, ...devices]);
}

/**
 * Predicted events still owed to each webhook that is live and subscribed at the end. An event
 * raised with the implementation's own data is paid by a delivery of its type no other such
 * event took (copies of one delivery share its id and pay once).
 */
export function owed(state: ModelState, seen: SeenDelivery[]): { webhookId: string; event: PredictedEvent }[] {
  const out: { webhookId: string; event: PredictedEvent }[] = [];
  for (const known of state.known.values()) {
    if (known.resource !== 'webhooks' || known.expected.enabled !== true) continue;
    const taken = new Set<string>();
    for (const event of eventsFor(state, known.id)) {
      if (!(known.expected.events as string[]).includes(event.type)) continue;
      const paid = seen.find((d) => d.webhookId === known.id && sameEvent(event, d) && !(event.ownData && taken.has(d.deliveryId)));
      if (!paid) out.push({ webhookId: known.id, event });
      else if (event.ownData) taken.add(paid.deliveryId);
    }
  }
  return out;
}

function signedBy(delivery: SeenDelivery, secrets: string[]): boolean {
  const header = Buffer.from(delivery.signature ?? '');
  return secrets.some((secret) => {
    const wanted = Buffer.from(`sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(delivery.raw).digest('hex')}`);
    return wanted.length === header.length && timingSafeEqual(wanted, header);
  });
}

/** The rules deliveries are judged by: who gets an event, a targeted test event and its overrides, the body signature. */
const RULES: { reach: RuleId; target: RuleId; raised: RuleId; signature: RuleId } = {
  reach: 'webhooks.2',
  raised: 'test-support-not-part-of-the-v1-contract.3',
  target: 'test-support-not-part-of-the-v1-contract.4',
  signature: 'delivery-headers.1',
};

/** Differences shown by the deliveries seen on the kit's webhooks, the missing ones included. */
export function judgeDeliveries(state: ModelState, seen: SeenDelivery[]): Difference[] {
  const rules = RULES;
  const ids = kitIds(state);
  const out: Difference[] = [];
  for (const delivery of seen) {
    if (!identifying(delivery.data, ids)) continue;
    const predicted = state.events.filter((event) => !event.ownData && sameEvent(event, delivery));
    if (predicted.length === 0) {
      out.push({
        rule: rules.reach,
        message: `${delivery.type} ${JSON.stringify(delivery.data)} reached ${delivery.webhookId}, but nothing the kit did causes it`,
      });
    } else if (!predicted.some((event) => event.recipients.has(delivery.webhookId))) {
      const targeted = predicted.some((event) => event.targeted !== undefined);
      out.push({
        rule: targeted ? rules.target : rules.reach,
        message: `${delivery.type} for ${JSON.stringify(delivery.data.finding_id ?? delivery.data.policy_id ?? delivery.data.device_id)} reached ${delivery.webhookId}, which was not ${targeted ? 'the webhook it was raised for' : 'enabled and subscribed when it happened'}`,
      });
    }
    const hook = state.known.get(delivery.webhookId);
    if (hook && hook.secrets.length > 0 && !hook.unsignedSometime && !signedBy(delivery, hook.secrets))
      out.push({
        rule: rules.signature,
        message: `a delivery to ${delivery.webhookId} has X-Service-Signature ${delivery.signature ?? '(none)'}, not signed with its secret`,
      });
  }
  // A raised event must come with the overrides it was raised with; any other with the data its change fixes.
  for (const { webhookId, event } of owed(state, seen))
    out.push({
      rule: event.targeted ? rules.raised : rules.reach,
      message: `${event.type} ${event.ownData ? '(with data of its own, raised by the trigger command)' : JSON.stringify(event.data)} never reached ${webhookId}, which was enabled and subscribed`,
    });
  return out;
}
