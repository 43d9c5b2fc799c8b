// The stateful mode's memory: the three collections as the reference server's store keeps them
// (policies without their derived compliance, webhooks with their secrets), seeded from the same
// examples as the stateful mock (server/stateful-mock/), and read back as the API shows them.

import type { OpenApiDocument } from 'secmon-api/src/document';
import type { components } from '../../../../generated/schema.d.ts';
import { type CursorPosition, decodeCursor, encodeCursor } from '../../../../server/domain/cursor.ts';
import { ACTIVE_STATUSES } from '../../../../server/domain/findings.ts';
import type { PolicyRecord } from '../../../../server/domain/policies.ts';
import type { NewWebhook, StoredSecrets } from '../../../../server/domain/webhooks.ts';
import { seedRecords } from '../../../../server/store/seed.ts';
import type { Answer } from '../answer.ts';

type Schemas = components['schemas'];

export interface WebhookRecord extends Omit<NewWebhook, 'secret'> {
  disabled_reason: Schemas['Webhook']['disabled_reason'];
  secrets: StoredSecrets;
}

export interface Records {
  policies: Map<string, PolicyRecord>;
  findings: Map<string, Schemas['Finding']>;
  webhooks: Map<string, WebhookRecord>;
  /** First answers of creates sent with an Idempotency-Key, by credentials and key. */
  creates: Map<string, Answer & { fingerprint: string }>;
}

export function seeded(doc: OpenApiDocument): Records {
  const { policies, findings, webhooks } = seedRecords(doc);
  return {
    policies: new Map(policies.map((policy) => [policy.id, policy])),
    findings: new Map(findings.map((finding) => [finding.id, finding])),
    webhooks: new Map(
      webhooks.map(({ secret, ...webhook }) => [
        webhook.id,
        { ...webhook, disabled_reason: null, secrets: { secret, previousSecret: null, previousSecretExpiresAt: null } },
      ]),
    ),
    creates: new Map(),
  };
}

/** A policy as the API shows it: non-compliant while an open or in-progress finding references it. */
export function policyView(records: Records, policy: PolicyRecord): Schemas['Policy'] {
  const failing = [...records.findings.values()].some(
    (finding) => finding.policy_id === policy.id && ACTIVE_STATUSES.includes(finding.status),
  );
  return { ...policy, compliance_status: failing ? 'non_compliant' : 'compliant' };
}

/** A webhook as the API shows it: whether it has a secret, never the secret. No deliveries in a mock. */
export function webhookView({ secrets, ...webhook }: WebhookRecord): Schemas['Webhook'] {
  return { ...webhook, has_secret: secrets.secret !== null, last_delivery: null };
}

export type Filters = Record<string, string | number | boolean | undefined>;

/**
 * One page of a list, newest first by (created_at, id), after the cursor's position; `undefined`
 * when the cursor was not issued for this list and these filters (the server's `400`).
 */
export function pageOf<T extends CursorPosition>(
  items: Iterable<T>,
  list: string,
  filters: Filters,
  query: { limit?: unknown; cursor?: unknown },
): { data: T[]; next_cursor: string | null } | undefined {
  const limit = typeof query.limit === 'number' ? query.limit : 20;
  const after = typeof query.cursor === 'string' ? decodeCursor(list, filters, query.cursor) : undefined;
  if (typeof query.cursor === 'string' && after === undefined) return undefined;
  const newer = (a: CursorPosition, b: CursorPosition) => a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id);
  const sorted = [...items].sort((a, b) => (newer(a, b) ? -1 : 1)).filter((item) => after === undefined || newer(after, item));
  const data = sorted.slice(0, limit);
  const last = data.at(-1);
  return { data, next_cursor: sorted.length > limit && last ? encodeCursor(list, filters, last) : null };
}
