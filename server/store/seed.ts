// The stateful mock's starting data: the policies, findings and webhooks of the document's list
// examples, with their ids and times, so it shows what the static mock shows and then remembers
// what a frontend writes on top.
import type { DatabaseSync } from 'node:sqlite';
import type { components } from '../../generated/schema.d.ts';
import type { OpenApiDocument } from '../../lib/document.ts';
import { transaction } from './sqlite/database.ts';
import { writeFinding } from './sqlite/findings.ts';
import { insertPolicy } from './sqlite/policies.ts';
import { insertWebhook } from './sqlite/webhooks.ts';

type Schemas = components['schemas'];

function listExample<T>(doc: OpenApiDocument, name: string): T[] {
  return ((doc.components?.examples?.[name] as { value?: { data?: T[] } } | undefined)?.value?.data ?? []).slice().reverse();
}

/** Oldest first, so the store's newest-first order matches the examples'. */
export function seedFromExamples(db: DatabaseSync, doc: OpenApiDocument): void {
  transaction(db, () => insertExamples(db, doc));
}

/**
 * Every row goes (what the app wrote, queued deliveries, idempotency records) and the examples
 * come back, in one transaction: the stateful mock's `--reset`, without a restart.
 */
export function resetToExamples(db: DatabaseSync, doc: OpenApiDocument): void {
  transaction(db, () => {
    // Foreign keys are checked at COMMIT, when every table is in its seeded state again.
    db.exec('PRAGMA defer_foreign_keys = ON');
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'").all();
    for (const { name } of tables) db.exec(`DELETE FROM "${String(name)}"`);
    insertExamples(db, doc);
  });
}

function insertExamples(db: DatabaseSync, doc: OpenApiDocument): void {
  for (const { id, name, description, severity, enabled, frameworks, rule, created_at } of listExample<Schemas['Policy']>(doc, 'PolicyList')) {
    insertPolicy(db, id, { name, description, severity, enabled, frameworks, rule }, created_at);
  }
  for (const finding of listExample<Schemas['Finding']>(doc, 'FindingList')) writeFinding(db, null, finding, finding.created_at);
  for (const { id, url, events, description, enabled, created_at } of listExample<Schemas['Webhook']>(doc, 'WebhookList')) {
    insertWebhook(db, id, { url, events, description, enabled }, created_at);
  }
}
