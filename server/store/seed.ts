// The stateful mock's starting data: the policies, findings and webhooks of the document's list
// examples, with their ids and times, so it shows what the static mock shows and then remembers
// what a frontend writes on top.
import type { components } from '../../generated/schema.d.ts';
import type { OpenApiDocument } from '../../packages/api/src/document.ts';
import { newPolicy, type PolicyRecord } from '../domain/policies.ts';
import { type NewWebhook, newWebhook } from '../domain/webhooks.ts';
import type { Store } from './store.ts';

type Schemas = components['schemas'];

function listExample<T>(doc: OpenApiDocument, name: string): T[] {
  return ((doc.components?.examples?.[name] as { value?: { data?: T[] } } | undefined)?.value?.data ?? []).slice().reverse();
}

/** Oldest first, so the store's newest-first order matches the examples'. */
export function seedFromExamples(store: Store, doc: OpenApiDocument): Promise<void> {
  return store.transaction((tx) => insertExamples(tx, doc));
}

/**
 * Every row goes (what the app wrote, queued deliveries, idempotency records) and the examples
 * come back, in one transaction: the stateful mock's `--reset`, without a restart.
 */
export function resetToExamples(store: Store, doc: OpenApiDocument): Promise<void> {
  return store.transaction(async (tx) => {
    await tx.clear();
    await insertExamples(tx, doc);
  });
}

export interface SeedRecords {
  policies: PolicyRecord[];
  findings: Schemas['Finding'][];
  webhooks: NewWebhook[];
}

/** The records the examples describe, oldest first (also the in-memory seed of secmon-msw's stateful mode). */
export function seedRecords(doc: OpenApiDocument): SeedRecords {
  return {
    policies: listExample<Schemas['Policy']>(doc, 'PolicyList').map(
      ({ id, name, description, severity, enabled, frameworks, rule, created_at }) =>
        newPolicy(id, { name, description, severity, enabled, frameworks, rule }, created_at),
    ),
    findings: listExample<Schemas['Finding']>(doc, 'FindingList'),
    webhooks: listExample<Schemas['Webhook']>(doc, 'WebhookList').map(({ id, url, events, description, enabled, created_at }) =>
      newWebhook(id, { url, events, description, enabled }, created_at),
    ),
  };
}

async function insertExamples(tx: Store, doc: OpenApiDocument): Promise<void> {
  const { policies, findings, webhooks } = seedRecords(doc);
  for (const policy of policies) await tx.policies.insert(policy);
  for (const finding of findings) await tx.findings.write(null, finding, finding.created_at);
  for (const webhook of webhooks) await tx.webhooks.insert(webhook);
}
