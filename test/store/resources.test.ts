// The resources on each store (the project decides which, test/store/open-store.ts): keyset pages
// and their filters, and the core's use cases over each: conditional writes, a policy's delete, the
// finding write path with its compliance events, webhook replacement with secret rotation, and the mock's reset.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../generated/schema.d.ts';
import type { CursorPosition } from '../../packages/core/src/domain/cursor.ts';
import { newFinding, updatedFinding } from '../../packages/core/src/domain/findings.ts';
import { newPolicy } from '../../packages/core/src/domain/policies.ts';
import { newWebhook, replacedWebhook, SECRET_OVERLAP_MS } from '../../packages/core/src/domain/webhooks.ts';
import { disableAfter, publish } from '../../packages/core/src/index.ts';
import { writeFinding } from '../../packages/core/src/use-cases/finding-write.ts';
import { core, digests } from '../../server/platform.ts';
import type { Store } from '../../server/store/store.ts';
import { claimDue } from '../../server/webhooks/claim.ts';
import { EndpointScheduler } from '../../server/webhooks/endpoints.ts';
import { openTestStore } from './open-store.ts';

type Finding = components['schemas']['Finding'];

const DEVICE = 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2';
const DAY = (day: number) => `2026-11-0${day}T09:00:00.000Z`;
const id = (prefix: string, index: number) => `${prefix}_01jbz3k7q2w9x8v6t5r4p3n2${String(index).padStart(2, '0')}`;

let store: Store;
beforeEach(async () => {
  ({ store } = await openTestStore());
});
afterEach(async () => {
  await store.close();
});

async function addFinding(index: number, fields: Partial<components['schemas']['FindingCreate']> = {}, at = DAY(1)): Promise<Finding> {
  const finding = newFinding(
    id('fnd', index),
    { title: `Finding ${index}`, severity: 'high', device_id: DEVICE, ...fields },
    at,
  ) as Finding;
  expect(await writeFinding(store, null, finding, at)).toBeUndefined();
  return finding;
}

/** Every page of a list, `limit` at a time, following the last row of each page as the cursor. */
async function walk<T extends { id: string; created_at: string }>(
  page: (after: CursorPosition | undefined, limit: number) => Promise<T[]>,
  limit: number,
) {
  const seen: string[] = [];
  let after: CursorPosition | undefined;
  for (;;) {
    const rows = await page(after, limit);
    expect(rows.length).toBeLessThanOrEqual(limit + 1);
    seen.push(...rows.slice(0, limit).map((row) => row.id));
    if (rows.length <= limit) return seen;
    const last = rows[limit - 1]!;
    after = { created_at: last.created_at, id: last.id };
  }
}

describe('lists', () => {
  it('pages newest first, ties broken by id, each row once, one extra row telling a next page exists', async () => {
    for (let index = 0; index < 7; index++)
      await store.policies.insert(
        newPolicy(id('pol', index), { name: `p${index}`, severity: index % 2 ? 'high' : 'low' }, DAY(1 + (index % 3))),
      );
    const expected = (await store.policies.list({}, undefined, 100)).map((policy) => [policy.created_at, policy.id].join());
    expect(expected).toEqual([...expected].sort().reverse());
    expect(await walk((after, limit) => store.policies.list({}, after, limit), 2)).toHaveLength(7);
    expect(await walk((after, limit) => store.policies.list({ severity: 'high' }, after, limit), 2)).toEqual([
      id('pol', 5),
      id('pol', 1),
      id('pol', 3),
    ]);
    expect(await store.policies.list({ enabled: false }, undefined, 10)).toEqual([]);
  });

  it('filters findings by every documented filter, alone and together', async () => {
    const policy = await store.policies.insert(newPolicy(id('pol', 1), { name: 'p', severity: 'high' }, DAY(1)));
    await addFinding(1, { policy_id: policy.id });
    await addFinding(2, { severity: 'low' });
    await addFinding(3, { device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x3' }, DAY(2));
    const ids = async (filters: Parameters<Store['findings']['list']>[0]) =>
      (await store.findings.list(filters, undefined, 10)).map((finding) => finding.id);
    expect(await ids({})).toEqual([id('fnd', 3), id('fnd', 2), id('fnd', 1)]);
    expect(await ids({ policy_id: policy.id })).toEqual([id('fnd', 1)]);
    expect(await ids({ severity: 'high', device_id: DEVICE })).toEqual([id('fnd', 1)]);
    expect(await ids({ status: 'resolved' })).toEqual([]);
    expect(await walk((after, limit) => store.findings.list({ status: 'open' }, after, limit), 1)).toEqual([
      id('fnd', 3),
      id('fnd', 2),
      id('fnd', 1),
    ]);
  });

  it('filters webhooks by subscribed event and enabled, following later changes', async () => {
    const a = await store.webhooks.insert(
      newWebhook(id('whk', 1), { url: 'https://a.example', events: ['finding.created', 'scan.completed'] }, DAY(1)),
    );
    await store.webhooks.insert(newWebhook(id('whk', 2), { url: 'https://b.example', events: ['scan.completed'], enabled: false }, DAY(2)));
    const ids = async (filters: Parameters<Store['webhooks']['list']>[0]) =>
      (await store.webhooks.list(filters, undefined, 10)).map((webhook) => webhook.id);
    expect(await ids({ event: 'scan.completed' })).toEqual([id('whk', 2), id('whk', 1)]);
    expect(await ids({ event: 'scan.completed', enabled: true })).toEqual([id('whk', 1)]);
    await store.webhooks.replace(replacedWebhook(a, { url: a.url, events: ['device.connected'] }, DAY(3)));
    expect(await ids({ event: 'scan.completed' })).toEqual([id('whk', 2)]);
    expect(await ids({ event: 'device.connected', enabled: true })).toEqual([id('whk', 1)]);
  });
});

describe('conditional writes', () => {
  it('write only when If-Match names the current ETag; of two writers with one ETag, one wins', async () => {
    const policy = await store.policies.insert(newPolicy(id('pol', 1), { name: 'Original', severity: 'low' }, DAY(1)));
    const rename = (name: string, ifMatch: string) =>
      core.policies.replace(store, policy.id, { name, severity: 'high' }, ifMatch, new Date(DAY(2)));
    expect(await rename('Nope', '"stale"')).toMatchObject({ error: { kind: 'precondition-failed' } });
    const outcomes = await Promise.all([rename('A', digests.etagOf(policy)), rename('B', digests.etagOf(policy))]);
    expect(outcomes.filter((outcome) => 'error' in outcome && outcome.error.kind === 'precondition-failed')).toHaveLength(1);
    expect(await store.policies.get(policy.id)).toMatchObject({ version: 2, severity: 'high', created_at: DAY(1), updated_at: DAY(2) });
  });

  it('a transaction that throws leaves nothing behind', async () => {
    await expect(
      store.transaction(async (tx) => {
        await tx.policies.insert(newPolicy(id('pol', 1), { name: 'p', severity: 'low' }, DAY(1)));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await store.policies.get(id('pol', 1))).toBeUndefined();
  });
});

describe('policies and findings', () => {
  it('a policy is non-compliant while open or in-progress findings reference it; deleting it unlinks closed ones', async () => {
    const policy = await store.policies.insert(newPolicy(id('pol', 1), { name: 'p', severity: 'high' }, DAY(1)));
    expect(policy).toMatchObject({
      description: '',
      enabled: true,
      frameworks: [],
      rule: null,
      version: 1,
      compliance_status: 'compliant',
    });
    const finding = await addFinding(1, { policy_id: policy.id });
    expect((await store.policies.get(policy.id))!.compliance_status).toBe('non_compliant');
    const resolved = updatedFinding(
      finding,
      { title: finding.title, severity: 'high', status: 'resolved', policy_id: policy.id, resolution: { reason: 'fixed' } },
      DAY(2),
    ) as Finding;
    const remove = () => core.policies.remove(store, policy.id, undefined, new Date(DAY(3)));
    expect(await remove()).toMatchObject({ error: { kind: 'policy-in-use' } });
    expect(await writeFinding(store, finding, resolved, DAY(2))).toBeUndefined();
    expect((await store.policies.get(policy.id))!.compliance_status).toBe('compliant');
    expect(await remove()).toEqual({ value: undefined });
    expect(await remove()).toMatchObject({ error: { kind: 'not-found' } });
    expect(await store.findings.get(finding.id)).toMatchObject({ status: 'resolved', policy_id: null, updated_at: DAY(3) });
  });

  it('a finding write refuses an unknown policy, and queues finding and compliance events with the change', async () => {
    await store.webhooks.insert(
      newWebhook(id('whk', 1), { url: 'https://a.example', events: ['finding.created', 'compliance.changed'] }, DAY(1)),
    );
    const unknown = newFinding(
      id('fnd', 1),
      { title: 't', severity: 'high', device_id: DEVICE, policy_id: id('pol', 9) },
      DAY(1),
    ) as Finding;
    expect(await writeFinding(store, null, unknown, DAY(1))).toMatchObject({ kind: 'validation', pointer: '/body/policy_id' });
    expect(await store.findings.get(unknown.id)).toBeUndefined();
    await store.policies.insert(newPolicy(id('pol', 1), { name: 'p', severity: 'high' }, DAY(1)));
    await addFinding(2, { policy_id: id('pol', 1) });
    expect((await store.outbox.listEvents()).map((event) => event.event)).toEqual(['finding.created', 'compliance.changed']);
  });
});

describe('webhooks', () => {
  const scheduler = () => new EndpointScheduler({ concurrency: 100, maxPerEndpoint: 100, probeAfterMs: 1000 });
  const claimSecrets = async (now: number) => {
    await publish(
      store,
      {
        event: 'scan.completed',
        timestamp: DAY(1),
        data: {
          scan_id: 'scn_01jbz3k7q2w9x8v6t5r4p3n2m1',
          device_id: DEVICE,
          outcome: 'succeeded',
          started_at: DAY(1),
          completed_at: DAY(1),
          new_findings: { info: 0, low: 0, medium: 0, high: 0, critical: 0 },
        },
      },
      new Date(now),
    );
    const [delivery] = await claimDue(store.outbox, { now, limit: 1, leaseMs: 1000, plan: () => scheduler().plan(now) });
    return { secret: delivery!.secret, previousSecret: delivery!.previousSecret };
  };

  it('secret rotation: a replaced secret signs beside the new one until its overlap ends; null removes both', async () => {
    const created = await store.webhooks.insert(
      newWebhook(id('whk', 1), { url: 'https://a.example', events: ['scan.completed'], secret: 'whsec_first_secret_000' }, DAY(1)),
    );
    expect(created).toMatchObject({ has_secret: true, disabled_reason: null, last_delivery: null });
    expect(created).not.toHaveProperty('secret');
    const replacedAt = Date.parse(DAY(2));
    const replace = async (secret: string | null | undefined, at: number) => {
      const current = (await store.webhooks.get(created.id))!;
      return store.webhooks.replace(
        replacedWebhook(
          current,
          { url: current.url, events: current.events, ...(secret === undefined ? {} : { secret }) },
          new Date(at).toISOString(),
        ),
      );
    };
    await replace('whsec_second_secret_00', replacedAt);
    expect(await claimSecrets(replacedAt + 1)).toEqual({ secret: 'whsec_second_secret_00', previousSecret: 'whsec_first_secret_000' });
    expect(await claimSecrets(replacedAt + SECRET_OVERLAP_MS)).toEqual({ secret: 'whsec_second_secret_00', previousSecret: null });
    await replace(undefined, replacedAt + 1);
    expect(await claimSecrets(replacedAt + 2)).toEqual({ secret: 'whsec_second_secret_00', previousSecret: 'whsec_first_secret_000' });
    expect(await replace(null, replacedAt + 3)).toMatchObject({ has_secret: false });
    expect(await claimSecrets(replacedAt + 4)).toEqual({ secret: null, previousSecret: null });
  });

  it("the service's disabled_reason stays while the webhook stays disabled, and goes when it is enabled or disabled by hand", async () => {
    const webhook = await store.webhooks.insert(newWebhook(id('whk', 1), { url: 'https://a.example', events: ['scan.completed'] }, DAY(1)));
    const put = async (enabled: boolean, at: string) =>
      store.webhooks.replace(
        replacedWebhook((await store.webhooks.get(webhook.id))!, { url: webhook.url, events: webhook.events, enabled }, at),
      );
    const exhausted = { webhookId: webhook.id, kind: 'exhausted' as const, firstAttemptAt: 0, at: Date.parse(DAY(2)) };
    expect(await store.outbox.record((tx) => disableAfter(tx, exhausted))).toBe('failing');
    expect(await store.outbox.record((tx) => disableAfter(tx, exhausted))).toBeNull();
    expect(await store.webhooks.get(webhook.id)).toMatchObject({ enabled: false, disabled_reason: 'failing', updated_at: DAY(2) });
    expect(await put(false, DAY(3))).toMatchObject({ enabled: false, disabled_reason: 'failing', updated_at: DAY(3) });
    expect(await put(true, DAY(4))).toMatchObject({ enabled: true, disabled_reason: null });
    expect(await put(false, DAY(5))).toMatchObject({ enabled: false, disabled_reason: null });
    expect(await store.webhooks.delete(webhook.id)).toBe(true);
    expect(await store.webhooks.delete(webhook.id)).toBe(false);
  });
});

describe('clear', () => {
  it('empties every table inside the caller’s transaction (the mock’s reset)', async () => {
    await store.policies.insert(newPolicy(id('pol', 1), { name: 'p', severity: 'high' }, DAY(1)));
    await store.webhooks.insert(newWebhook(id('whk', 1), { url: 'https://a.example', events: ['finding.created'] }, DAY(1)));
    await addFinding(1);
    await store.idempotency.save('key', 'k', { fingerprint: 'f', status: 201, location: '/', etag: '"e"', body: '{}' }, new Date(DAY(1)));
    await store.transaction((tx) => tx.clear());
    expect(await store.policies.list({}, undefined, 10)).toEqual([]);
    expect(await store.findings.list({}, undefined, 10)).toEqual([]);
    expect(await store.outbox.listEvents()).toEqual([]);
    expect(await store.idempotency.find('key', 'k', new Date(DAY(1)))).toBeUndefined();
  });
});
