// The three collections' use cases: which domain function makes or changes each resource, and what
// a delete must refuse or undo first. Policies: a policy that open or in-progress findings still
// reference is not deleted; deleting one unlinks the closed findings that reference it.
import type { components } from '../../../../generated/schema.d.ts';
import type { Digests } from '../digests.ts';
import { newFinding, updatedFinding } from '../domain/findings.ts';
import { deletionRefusal, newPolicy, replacedPolicy } from '../domain/policies.ts';
import { newWebhook, replacedWebhook } from '../domain/webhooks.ts';
import type { FindingFilters, PolicyFilters, Repository, WebhookFilters } from '../port.ts';
import { writeFindingIn } from './finding-write.ts';
import { collection } from './resources.ts';

type Schemas = components['schemas'];

const UNLINK_PAGE = 100;

/** Findings keep their record when their policy goes: each one that references it loses the link. */
export async function unlinkFindings(tx: Repository, policyId: string, at: string): Promise<void> {
  for (;;) {
    const linked = await tx.findings.list({ policy_id: policyId }, undefined, UNLINK_PAGE);
    for (const finding of linked) await tx.findings.upsert({ ...finding, policy_id: null, updated_at: at });
    if (linked.length === 0) return;
  }
}

export function collections(digests: Digests) {
  const policies = collection<Schemas['Policy'], PolicyFilters, Schemas['PolicyWrite'], Schemas['PolicyWrite']>(
    {
      name: 'policies',
      noun: 'policy',
      prefix: 'pol',
      list: (repo) => repo.policies.list,
      get: (repo, id) => repo.policies.get(id),
      create: (tx, id, input, at) => tx.policies.insert(newPolicy(id, input, at)),
      replace: async (tx, current, input, at) => (await tx.policies.replace(replacedPolicy(current, input, at)))!,
      remove: async (tx, current, at) => {
        const refusal = deletionRefusal(current);
        if (refusal) return refusal;
        await unlinkFindings(tx, current.id, at);
        await tx.policies.delete(current.id);
        return undefined;
      },
    },
    digests,
  );
  const findings = collection<Schemas['Finding'], FindingFilters, Schemas['FindingCreate'], Schemas['FindingUpdate']>(
    {
      name: 'findings',
      noun: 'finding',
      prefix: 'fnd',
      list: (repo) => repo.findings.list,
      get: (repo, id) => repo.findings.get(id),
      create: async (tx, id, input, at) => {
        const finding = newFinding(id, input, at);
        if ('kind' in finding) return finding;
        return (await writeFindingIn(tx, null, finding, at)) ?? finding;
      },
      replace: async (tx, current, input, at) => {
        const updated = updatedFinding(current, input, at);
        if ('kind' in updated) return updated;
        return (await writeFindingIn(tx, current, updated, at)) ?? updated;
      },
      remove: (tx, current, at) => writeFindingIn(tx, current, null, at),
    },
    digests,
  );
  const webhooks = collection<Schemas['Webhook'], WebhookFilters, Schemas['WebhookCreate'], Schemas['WebhookUpdate']>(
    {
      name: 'webhooks',
      noun: 'webhook',
      prefix: 'whk',
      list: (repo) => repo.webhooks.list,
      get: (repo, id) => repo.webhooks.get(id),
      create: (tx, id, input, at) => tx.webhooks.insert(newWebhook(id, input, at)),
      replace: async (tx, current, input, at) => (await tx.webhooks.replace(replacedWebhook(current, input, at)))!,
      remove: async (tx, current) => void (await tx.webhooks.delete(current.id)),
    },
    digests,
  );
  return { policies, findings, webhooks };
}

export type Collections = ReturnType<typeof collections>;
