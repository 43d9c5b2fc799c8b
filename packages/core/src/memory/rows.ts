// The in-memory adapter's tables and their reads: the rows as the SQL stores keep them (policies
// without their derived compliance, webhooks with their secrets), read back as the API shows them.
import type { components } from '../../../../generated/schema.d.ts';
import type { WebhookEvent } from '../../../api/src/events.ts';
import type { CursorPosition } from '../domain/cursor.ts';
import { ACTIVE_STATUSES } from '../domain/findings.ts';
import type { PolicyRecord } from '../domain/policies.ts';
import type { NewWebhook, StoredSecrets } from '../domain/webhooks.ts';
import type { StoredResponse } from '../port.ts';

type Schemas = components['schemas'];

export interface WebhookRecord extends Omit<NewWebhook, 'secret'> {
  disabled_reason: Schemas['Webhook']['disabled_reason'];
  secrets: StoredSecrets;
}

export interface Tables {
  policies: Map<string, PolicyRecord>;
  findings: Map<string, Schemas['Finding']>;
  webhooks: Map<string, WebhookRecord>;
  idempotency: Map<string, StoredResponse & { createdAt: number }>;
  events: { body: WebhookEvent; recipients: readonly string[] }[];
}

export const emptyTables = (): Tables => ({
  policies: new Map(),
  findings: new Map(),
  webhooks: new Map(),
  idempotency: new Map(),
  events: [],
});

export const copyTables = (tables: Tables): Tables => ({
  policies: new Map(tables.policies),
  findings: new Map(tables.findings),
  webhooks: new Map(tables.webhooks),
  idempotency: new Map(tables.idempotency),
  events: [...tables.events],
});

/** The derived column the SQL stores compute in their SELECT: open or in-progress findings reference the policy. */
export function policyRow(tables: Tables, policy: PolicyRecord): Schemas['Policy'] {
  const failing = [...tables.findings.values()].some(
    (finding) => finding.policy_id === policy.id && ACTIVE_STATUSES.includes(finding.status),
  );
  return { ...policy, compliance_status: failing ? 'non_compliant' : 'compliant' };
}

/** The public columns of a webhook row (`has_secret`, never the secret). No deliveries are kept here. */
export function webhookRow({ secrets, ...webhook }: WebhookRecord): Schemas['Webhook'] {
  return { ...webhook, has_secret: secrets.secret !== null, last_delivery: null };
}

type Filters = Record<string, string | number | boolean | undefined>;

/** Rows equal to every filter (`event`: listed in the row's `events`), newest first after `after`, `limit` + 1 of them. */
export function page<T extends CursorPosition>(rows: Iterable<T>, filters: Filters, after: CursorPosition | undefined, limit: number): T[] {
  const newer = (a: CursorPosition, b: CursorPosition) => a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id);
  const matches = (row: T) =>
    Object.entries(filters).every(([name, value]) => {
      if (value === undefined) return true;
      const column = (row as unknown as Record<string, unknown>)[name === 'event' ? 'events' : name];
      return Array.isArray(column) ? column.includes(value) : column === value;
    });
  return [...rows]
    .filter((row) => matches(row) && (after === undefined || newer(after, row)))
    .sort((a, b) => (newer(a, b) ? -1 : 1))
    .slice(0, limit + 1);
}
