// Webhook subscriptions on PostgreSQL. The secret column is write-only from the API's point of
// view: rows map to the public representation (`has_secret`); only the outbox reads the secret.
import type { components } from '../../../generated/schema.d.ts';
import type { CursorPosition } from '../../domain/cursor.ts';
import type { WebhookFilters } from '../store.ts';
import { secretAssignments, secretChange } from '../secret-rotation.ts';
import { selectPage, type Db } from './queries.ts';

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

export async function insertWebhook(db: Db, id: string, input: components['schemas']['WebhookCreate'], now: string): Promise<Webhook> {
  await db.query(
    `INSERT INTO webhooks (id, url, events, secret, description, enabled, disabled_reason, last_delivery, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, NULL, NULL, $7, $7)`,
    [id, input.url, JSON.stringify(input.events), input.secret ?? null, input.description ?? '', input.enabled !== false, now],
  );
  return (await getWebhook(db, id))!;
}

/** See WebhookStore.replace: the secret is kept, removed or replaced (server/store/secret-rotation.ts); enabling clears the service's reason. */
export async function replaceWebhook(db: Db, id: string, input: components['schemas']['WebhookUpdate'], now: string): Promise<Webhook | undefined> {
  const change = secretChange(input.secret, now);
  const placeholders = { keep: '$5', secret: '$6::text', previousUntil: '$9::bigint' } as const;
  const result = await db.query(
    `UPDATE webhooks SET url = $1, events = $2, description = $3, enabled = $4,
       ${secretAssignments((name) => placeholders[name])},
       disabled_reason = CASE WHEN $4 THEN NULL WHEN enabled THEN NULL ELSE disabled_reason END,
       updated_at = $7
     WHERE id = $8`,
    [input.url, JSON.stringify(input.events), input.description ?? '', input.enabled !== false, change.keep, change.secret, now, id, change.previousUntil],
  );
  return result.rowCount === 0 ? undefined : getWebhook(db, id);
}

export async function deleteWebhook(db: Db, id: string): Promise<boolean> {
  return ((await db.query('DELETE FROM webhooks WHERE id = $1', [id])).rowCount ?? 0) > 0;
}
