// The stateful mock's starting data: the policies, findings and webhooks of the document's list
// examples, with their ids and times, so it shows what the static mock shows and then remembers
// what a frontend writes on top.
import type { DatabaseSync } from 'node:sqlite';
import type { components } from '../../generated/schema.d.ts';
import type { OpenApiDocument } from '../../lib/document.ts';
import { writeFinding } from './findings.ts';
import { insertPolicy } from './policies.ts';
import { insertWebhook } from './webhooks.ts';

type Schemas = components['schemas'];

function listExample<T>(doc: OpenApiDocument, name: string): T[] {
  return ((doc.components?.examples?.[name] as { value?: { data?: T[] } } | undefined)?.value?.data ?? []).slice().reverse();
}

/** Oldest first, so the store's newest-first order matches the examples'. */
export function seedFromExamples(db: DatabaseSync, doc: OpenApiDocument): void {
  db.exec('BEGIN');
  try {
    for (const { id, name, description, severity, enabled, frameworks, rule, created_at } of listExample<Schemas['Policy']>(doc, 'PolicyList')) {
      insertPolicy(db, id, { name, description, severity, enabled, frameworks, rule }, created_at);
    }
    for (const finding of listExample<Schemas['Finding']>(doc, 'FindingList')) writeFinding(db, null, finding, finding.created_at);
    for (const { id, url, events, description, enabled, created_at } of listExample<Schemas['Webhook']>(doc, 'WebhookList')) {
      insertWebhook(db, id, { url, events, description, enabled }, created_at);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
