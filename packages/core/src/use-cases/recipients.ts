// Who hears of an event: every enabled webhook subscribed to its type (or, for a test event sent
// to one webhook, that one if it is among them). The store only reads webhooks and stores rows.
import type { components } from '../../../../generated/schema.d.ts';
import type { WebhookEvent } from '../../../api/src/events.ts';
import type { Repository } from '../port.ts';

type Webhook = components['schemas']['Webhook'];

const PAGE = 100;

/** The webhook receives events of `type`. */
export const receives = (webhook: Webhook, type: WebhookEvent['event']): boolean => webhook.enabled && webhook.events.includes(type);

/** The webhooks that receive `type`, read a page at a time with the list's own filters. */
export async function recipientsOf(repo: Repository, type: WebhookEvent['event'], only?: string): Promise<string[]> {
  if (only !== undefined) {
    const webhook = await repo.webhooks.get(only);
    return webhook && receives(webhook, type) ? [webhook.id] : [];
  }
  const ids: string[] = [];
  for (let after: Webhook | undefined, more = true; more; ) {
    const rows = await repo.webhooks.list({ enabled: true, event: type }, after, PAGE);
    const page = rows.slice(0, PAGE);
    ids.push(...page.filter((webhook) => receives(webhook, type)).map((webhook) => webhook.id));
    more = rows.length > PAGE;
    after = page.at(-1);
  }
  return ids;
}

/** Queues `body` for its recipients within the transaction `tx`. Resolves to the deliveries queued. */
export async function publishIn(tx: Repository, body: WebhookEvent, now: Date, only?: string): Promise<number> {
  const recipients = await recipientsOf(tx, body.event, only);
  return recipients.length === 0 ? 0 : tx.outbox.enqueue(body, recipients, now);
}

/** Queues `body` for its recipients in a transaction (a savepoint of the caller's, if any: nothing is queued if it rolls back). */
export const publish = (repo: Repository, body: WebhookEvent, now: Date, only?: string): Promise<number> =>
  repo.transaction((tx) => publishIn(tx, body, now, only));
