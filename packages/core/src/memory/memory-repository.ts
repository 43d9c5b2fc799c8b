// The in-memory adapter of the repository port, for the stateful mocks in Node and in browsers:
// Maps for tables, a copy taken at a transaction's start put back when it fails, and one
// transaction at a time. Like the SQL stores it reads and writes rows and decides nothing.

import { rotatedSecrets } from '../domain/webhooks.ts';
import { IDEMPOTENCY_TTL_MS, type Repository } from '../port.ts';
import { copyTables, emptyTables, page, policyRow, type Tables, webhookRow } from './rows.ts';

export interface MemoryRepository extends Repository {
  /** Every row goes. */
  clear(): void;
  /** The events queued so far, with the webhooks each was queued for (tests, the mocks' tools). */
  events(): Tables['events'];
}

export function memoryRepository(): MemoryRepository {
  let tables = emptyTables();
  let queue: Promise<unknown> = Promise.resolve();

  const rows: Omit<Repository, 'transaction'> = {
    policies: {
      list: async (filters, after, limit) =>
        page(
          [...tables.policies.values()].map((policy) => policyRow(tables, policy)),
          filters,
          after,
          limit,
        ),
      get: async (id) => {
        const policy = tables.policies.get(id);
        return policy && policyRow(tables, policy);
      },
      insert: async (policy) => {
        tables.policies.set(policy.id, policy);
        return policyRow(tables, policy);
      },
      replace: async (policy) => {
        if (!tables.policies.has(policy.id)) return undefined;
        tables.policies.set(policy.id, { ...policy, created_at: tables.policies.get(policy.id)!.created_at });
        return policyRow(tables, tables.policies.get(policy.id)!);
      },
      delete: async (id) => tables.policies.delete(id),
    },
    findings: {
      list: async (filters, after, limit) => page(tables.findings.values(), filters, after, limit),
      get: async (id) => tables.findings.get(id),
      upsert: async (finding) => void tables.findings.set(finding.id, finding),
      delete: async (id) => tables.findings.delete(id),
    },
    webhooks: {
      list: async (filters, after, limit) => page([...tables.webhooks.values()].map(webhookRow), filters, after, limit),
      get: async (id) => {
        const webhook = tables.webhooks.get(id);
        return webhook && webhookRow(webhook);
      },
      insert: async ({ secret, ...webhook }) => {
        const record = { ...webhook, disabled_reason: null, secrets: { secret, previousSecret: null, previousSecretExpiresAt: null } };
        tables.webhooks.set(webhook.id, record);
        return webhookRow(record);
      },
      replace: async ({ secret, ...replacement }) => {
        const stored = tables.webhooks.get(replacement.id);
        if (stored === undefined) return undefined;
        const record = { ...stored, ...replacement, secrets: rotatedSecrets(stored.secrets, secret) };
        tables.webhooks.set(record.id, record);
        return webhookRow(record);
      },
      delete: async (id) => tables.webhooks.delete(id),
    },
    idempotency: {
      find: async (owner, key, now) => {
        const stored = tables.idempotency.get(`${owner} ${key}`);
        if (stored === undefined || stored.createdAt <= now.getTime() - IDEMPOTENCY_TTL_MS) return undefined;
        const { createdAt: _, ...response } = stored;
        return response;
      },
      save: async (owner, key, response, now) => {
        for (const [name, stored] of tables.idempotency)
          if (stored.createdAt <= now.getTime() - IDEMPOTENCY_TTL_MS) tables.idempotency.delete(name);
        tables.idempotency.set(`${owner} ${key}`, { ...response, createdAt: now.getTime() });
      },
    },
    outbox: {
      enqueue: async (body, recipients) => {
        tables.events.push({ body, recipients: [...recipients] });
        return recipients.length;
      },
    },
  };

  // Inside a transaction: calls run at once, and a nested transaction is a savepoint (the tables
  // as they were come back when it fails).
  const tx: Repository = { ...rows, transaction: savepoint };
  async function savepoint<T>(fn: (tx: Repository) => Promise<T>): Promise<T> {
    const before = copyTables(tables);
    try {
      return await fn(tx);
    } catch (error) {
      tables = before;
      throw error;
    }
  }
  return {
    ...rows,
    // One transaction at a time: another waits for it, as on SQLite's single writer.
    transaction: (fn) => {
      const run = queue.then(() => savepoint(fn));
      queue = run.catch(() => undefined);
      return run;
    },
    clear: () => void (tables = emptyTables()),
    events: () => tables.events,
  };
}
