// Webhook subscriptions. The secret column is write-only from the API's point of view: rows
// are mapped to the public representation (`has_secret`) and the secret never leaves this module
// except through the delivery engine's own queries (server/store/sqlite/outbox.ts).
import type { DatabaseSync } from 'node:sqlite';
import type { components } from '../../../generated/schema.d.ts';
import type { CursorPosition } from '../../../packages/core/src/domain/cursor.ts';
import {
  type NewWebhook,
  rotatedSecrets,
  type StoredSecrets,
  type WebhookReplacement,
} from '../../../packages/core/src/domain/webhooks.ts';
import type { WebhookFilters } from '../store.ts';
import { transaction } from './database.ts';
import { arrayStatement, json, jsonOrNull, type Row, selectPage, statement, type Values } from './statements.ts';

type Webhook = components['schemas']['Webhook'];

const COLUMNS = `w.id, w.url, w.events, w.secret IS NOT NULL AS has_secret, w.description, w.enabled,
  w.disabled_reason, w.last_delivery, w.created_at, w.updated_at`;
const SELECT = `SELECT ${COLUMNS} FROM webhooks w`;
// CROSS JOIN keeps webhook_subscriptions the outer loop, so its (event, …) index orders the page.
const SELECT_SUBSCRIBED = `SELECT ${COLUMNS} FROM webhook_subscriptions s CROSS JOIN webhooks w ON w.id = s.id`;

/** A row of SELECT, in its column order. */
function toWebhook(row: Values): Webhook {
  const [id, url, events, has_secret, description, enabled, disabled_reason, last_delivery, created_at, updated_at] = row;
  return {
    id: id as string,
    url: url as string,
    events: json(events),
    has_secret: has_secret === 1,
    description: description as string,
    enabled: enabled === 1,
    disabled_reason: disabled_reason as Webhook['disabled_reason'],
    last_delivery: jsonOrNull(last_delivery),
    created_at: created_at as string,
    updated_at: updated_at as string,
  };
}

export function listWebhooks(db: DatabaseSync, filters: WebhookFilters, after: CursorPosition | undefined, limit: number): Webhook[] {
  const alias = filters.event === undefined ? 'w' : 's';
  const where: [string, string | number][] = [];
  if (filters.event !== undefined) where.push(['s.event = ?', filters.event]);
  if (filters.enabled !== undefined) where.push([`${alias}.enabled = ?`, filters.enabled ? 1 : 0]);
  const select = filters.event === undefined ? SELECT : SELECT_SUBSCRIBED;
  return selectPage(db, { select, alias, where, after, limit }).map(toWebhook);
}

export function getWebhook(db: DatabaseSync, id: string): Webhook | undefined {
  const row = arrayStatement(db, `${SELECT} WHERE w.id = ?`).get(id) as Values | undefined;
  return row && toWebhook(row);
}

export function insertWebhook(db: DatabaseSync, webhook: NewWebhook): Webhook {
  const { id, url, events, secret, description, enabled, created_at, updated_at } = webhook;
  statement(
    db,
    `INSERT INTO webhooks (id, url, events, secret, description, enabled, disabled_reason, last_delivery, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)`,
  ).run(id, url, JSON.stringify(events), secret, description, enabled ? 1 : 0, created_at, updated_at);
  return getWebhook(db, id)!;
}

function storedSecrets(db: DatabaseSync, id: string): StoredSecrets | undefined {
  const row = statement(db, 'SELECT secret, previous_secret, previous_secret_expires_at FROM webhooks WHERE id = ?').get(id) as
    | Row
    | undefined;
  return (
    row && {
      secret: row.secret as string | null,
      previousSecret: row.previous_secret as string | null,
      previousSecretExpiresAt: row.previous_secret_expires_at as number | null,
    }
  );
}

/** See WebhookStore.replace: the secret change is applied to the row's secrets by rotatedSecrets, in one transaction. */
export function replaceWebhook(db: DatabaseSync, webhook: WebhookReplacement): Webhook | undefined {
  const { id, url, events, description, enabled, disabled_reason, updated_at } = webhook;
  return transaction(db, () => {
    const current = storedSecrets(db, id);
    if (current === undefined) return undefined;
    const { secret, previousSecret, previousSecretExpiresAt } = rotatedSecrets(current, webhook.secret);
    statement(
      db,
      `UPDATE webhooks SET url = ?, events = ?, description = ?, enabled = ?, secret = ?, previous_secret = ?,
         previous_secret_expires_at = ?, disabled_reason = ?, updated_at = ?
       WHERE id = ?`,
    ).run(
      url,
      JSON.stringify(events),
      description,
      enabled ? 1 : 0,
      secret,
      previousSecret,
      previousSecretExpiresAt,
      disabled_reason,
      updated_at,
      id,
    );
    return getWebhook(db, id);
  });
}

export function deleteWebhook(db: DatabaseSync, id: string): boolean {
  return statement(db, 'DELETE FROM webhooks WHERE id = ?').run(id).changes > 0;
}
