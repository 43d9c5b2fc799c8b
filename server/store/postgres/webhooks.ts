// Webhook subscriptions on PostgreSQL. The secret column is write-only from the API's point of
// view: rows map to the public representation (`has_secret`); only the outbox reads the secret.
import type { components } from '../../../generated/schema.d.ts';
import type { CursorPosition } from '../../../packages/core/src/domain/cursor.ts';
import {
  type NewWebhook,
  rotatedSecrets,
  type StoredSecrets,
  type WebhookReplacement,
} from '../../../packages/core/src/domain/webhooks.ts';
import type { WebhookFilters } from '../store.ts';
import { type Db, selectPage } from './queries.ts';

type Webhook = components['schemas']['Webhook'];

const COLUMNS = `w.id, w.url, w.events, w.secret IS NOT NULL AS has_secret, w.description, w.enabled,
  w.disabled_reason, w.last_delivery, w.created_at, w.updated_at`;
const SELECT = `SELECT ${COLUMNS} FROM webhooks w`;
// The event filter pages through webhook_subscriptions' (event, …) index.
const SELECT_SUBSCRIBED = `SELECT ${COLUMNS} FROM webhook_subscriptions s JOIN webhooks w ON w.id = s.id`;

export async function listWebhooks(db: Db, filters: WebhookFilters, after: CursorPosition | undefined, limit: number): Promise<Webhook[]> {
  const alias = filters.event === undefined ? 'w' : 's';
  const where: [string, unknown][] = [];
  if (filters.event !== undefined) where.push(['s.event = $?', filters.event]);
  if (filters.enabled !== undefined) where.push([`${alias}.enabled = $?`, filters.enabled]);
  return selectPage<Webhook>(db, { select: filters.event === undefined ? SELECT : SELECT_SUBSCRIBED, alias, where, after, limit });
}

export async function getWebhook(db: Db, id: string): Promise<Webhook | undefined> {
  return (await db.query<Webhook>(`${SELECT} WHERE w.id = $1`, [id])).rows[0];
}

export async function insertWebhook(db: Db, webhook: NewWebhook): Promise<Webhook> {
  const { id, url, events, secret, description, enabled, created_at, updated_at } = webhook;
  await db.query(
    `INSERT INTO webhooks (id, url, events, secret, description, enabled, disabled_reason, last_delivery, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, NULL, NULL, $7, $8)`,
    [id, url, JSON.stringify(events), secret, description, enabled, created_at, updated_at],
  );
  return (await getWebhook(db, id))!;
}

/** See WebhookStore.replace: the secret change is applied to the row's secrets by rotatedSecrets. Run inside a transaction. */
export async function replaceWebhook(db: Db, webhook: WebhookReplacement): Promise<Webhook | undefined> {
  const { id, url, events, description, enabled, disabled_reason, updated_at } = webhook;
  const [current] = (
    await db.query<StoredSecrets>(
      `SELECT secret, previous_secret AS "previousSecret", previous_secret_expires_at AS "previousSecretExpiresAt"
       FROM webhooks WHERE id = $1`,
      [id],
    )
  ).rows;
  if (current === undefined) return undefined;
  const { secret, previousSecret, previousSecretExpiresAt } = rotatedSecrets(current, webhook.secret);
  await db.query(
    `UPDATE webhooks SET url = $1, events = $2, description = $3, enabled = $4, secret = $5, previous_secret = $6,
       previous_secret_expires_at = $7, disabled_reason = $8, updated_at = $9
     WHERE id = $10`,
    [url, JSON.stringify(events), description, enabled, secret, previousSecret, previousSecretExpiresAt, disabled_reason, updated_at, id],
  );
  return getWebhook(db, id);
}

export async function deleteWebhook(db: Db, id: string): Promise<boolean> {
  return ((await db.query('DELETE FROM webhooks WHERE id = $1', [id])).rowCount ?? 0) > 0;
}
