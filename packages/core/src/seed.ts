// The stateful mocks' starting data: the policies, findings and webhooks of the document's list
// examples, with their ids and times, so a stateful mock shows what the static mock shows and then
// remembers what a frontend writes on top.
import type { components } from '../../../generated/schema.d.ts';
import type { OpenApiDocument } from '../../api/src/document.ts';
import { newPolicy, type PolicyRecord } from './domain/policies.ts';
import { type NewWebhook, newWebhook } from './domain/webhooks.ts';
import type { Repository } from './port.ts';

type Schemas = components['schemas'];

function listExample<T>(doc: OpenApiDocument, name: string): T[] {
  return ((doc.components?.examples?.[name] as { value?: { data?: T[] } } | undefined)?.value?.data ?? []).slice().reverse();
}

export interface SeedRecords {
  policies: PolicyRecord[];
  findings: Schemas['Finding'][];
  webhooks: NewWebhook[];
}

/** The records the examples describe, oldest first, so a newest-first list matches the examples' order. */
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

/** Writes the examples' records inside the caller's transaction (no webhook exists yet to hear of them). */
export async function insertSeed(tx: Repository, doc: OpenApiDocument): Promise<void> {
  const { policies, findings, webhooks } = seedRecords(doc);
  for (const policy of policies) await tx.policies.insert(policy);
  for (const finding of findings) await tx.findings.upsert(finding);
  for (const webhook of webhooks) await tx.webhooks.insert(webhook);
}
