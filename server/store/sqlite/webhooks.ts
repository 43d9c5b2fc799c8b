// Webhook subscriptions. The secret column is write-only from the API's point of view: rows
// are mapped to the public representation (`has_secret`) and the secret never leaves this module
// except through the delivery engine's own queries (server/store/sqlite/outbox.ts).
import type { DatabaseSync } from 'node:sqlite';
import type { components } from '../../../generated/schema.d.ts';
import type { CursorPosition } from '../../domain/cursor.ts';
import type { WebhookFilters } from '../store.ts';
import { secretAssignments, secretChange } from '../secret-rotation.ts';
import { arrayStatement, jsonOrNull, json, selectPage, statement, type Values } from './statements.ts';

type Webhook = components['schemas']['Webhook'];
type WebhookCreate = components['schemas']['WebhookCreate'];
type WebhookUpdate = components['schemas']['WebhookUpdate'];
type EventType = components['schemas']['EventType'];

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

export function insertWebhook(db: DatabaseSync, id: string, input: WebhookCreate, now: string): Webhook {
  statement(
    db,
    `INSERT INTO webhooks (id, url, events, secret, description, enabled, disabled_reason, last_delivery, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)`,
  ).run(id, input.url, JSON.stringify(input.events), input.secret ?? null, input.description ?? '', input.enabled === false ? 0 : 1, now, now);
  return getWebhook(db, id)!;
}

/**
 * Full replacement, except the secret: omitted keeps it, null removes it, a string replaces it
 * (the replaced one stays valid for a while: server/store/secret-rotation.ts).
 * Enabling clears the service's `disabled_reason`; disabling keeps a reason the service set.
 */
export function replaceWebhook(db: DatabaseSync, id: string, input: WebhookUpdate, now: string): Webhook | undefined {
  const enabled = input.enabled === false ? 0 : 1;
  const change = secretChange(input.secret, now);
  const result = statement(
    db,
    `UPDATE webhooks SET url = :url, events = :events, description = :description, enabled = :enabled,
       ${secretAssignments((name) => `:${name}`)},
       disabled_reason = CASE WHEN :enabled THEN NULL WHEN enabled = 0 THEN disabled_reason ELSE NULL END,
       updated_at = :now
     WHERE id = :id`,
  ).run({
    url: input.url,
    events: JSON.stringify(input.events),
    description: input.description ?? '',
    enabled,
    keep: change.keep ? 1 : 0,
    secret: change.secret,
    previousUntil: change.previousUntil,
    now,
    id,
  });
  return result.changes === 0 ? undefined : getWebhook(db, id);
}

export function deleteWebhook(db: DatabaseSync, id: string): boolean {
  return statement(db, 'DELETE FROM webhooks WHERE id = ?').run(id).changes > 0;
}
