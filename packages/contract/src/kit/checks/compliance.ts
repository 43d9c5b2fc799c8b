// A policy's derived `compliance_status` through a finding's life (create, in progress, resolve,
// reopen, suppress, re-link, delete) and the `compliance.changed` event on every flip, and only then.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { documentedResources, labels } from './shared/documented.ts';
import { json } from './shared/finding-answers.ts';
import {
  bodyWith,
  crudNamed,
  distinct,
  eventsSkipped,
  findingUpdate,
  type Json,
  parseBody,
  sink,
  subscribe,
} from './shared/rule-support.ts';

const RULES = [
  'createPolicy.2',
  'createFinding.2',
  'updateFinding.4',
  'deleteFinding.2',
  'complianceChanged.1',
  'complianceChanged.2',
  'schema.ComplianceChangedEvent.1',
  'schema.ComplianceChangedEvent.4',
  'schema.ComplianceStatus.1',
  'schema.ComplianceStatus.2',
] as const;
type Rule = (typeof RULES)[number];

export const complianceCheck = defineCheck({
  name: 'compliance',
  column: 'compl',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 15, perCase: 0 },
  instances: (model) => {
    const found = documentedResources(model);
    if (!found) return [];
    const { policies, findings, hook } = found;
    return [
      {
        subjects: labels(
          policies.read.label,
          findings.create.label,
          findings.update.label,
          findings.delete.label,
          hook('compliance.changed'),
        ),
        run: (ctx, check) => compliance(ctx, check),
      },
    ];
  },
});

/**
 * `compliance`: the policy's derived status through every kind of change, and one
 * `compliance.changed` per flip (previous ≠ current, the causing finding or null for a delete),
 * none for a change that flips nothing.
 */
async function compliance(ctx: KitContext, check: Check<Rule>): Promise<'passed' | { note: string }> {
  const [policies, findings] = [crudNamed(ctx, 'policies'), crudNamed(ctx, 'findings')];
  const skipped = eventsSkipped(ctx);
  const events = skipped ? undefined : await sink(ctx, 'compliance');
  const { id: policyId, exchange } = await ctx.create(policies, check);
  const policy = json(exchange);
  if (policy.compliance_status !== 'compliant' || policy.version !== 1) {
    check.fail({
      at: policies.create,
      rule: 'createPolicy.2',
      observed: `a new policy has compliance_status ${String(policy.compliance_status)} and version ${String(policy.version)}; expected compliant and 1`,
      exchange,
    });
  }
  if (events) await subscribe(ctx, check, events.url, ['compliance.changed']);
  const flips: { to: string; cause: string | null; why: string }[] = [];
  const statusIs = async (expected: string, why: string, rule: Rule) => {
    const read = json(await ctx.send(policies.read, { id: policyId }));
    if (read.compliance_status !== expected)
      check.fail({ at: policies.read, rule, observed: `after ${why} the policy is ${String(read.compliance_status)}, not ${expected}` });
  };
  const move = async (id: string, current: Json, status: string, extra: Json = {}) => {
    const answer = await ctx.send(findings.update, { id, body: findingUpdate(current, status, extra) });
    check.conform(findings.update, answer, { statuses: [200] }, `finding ${id} → ${status}`);
    return json(answer);
  };

  const first = await ctx.create(findings, check, await bodyWith(ctx, findings.create, { policy_id: policyId }));
  let a = json(first.exchange);
  flips.push({ to: 'non_compliant', cause: first.id, why: 'its first open finding was created' });
  await statusIs('non_compliant', 'creating an open finding that references it', 'createFinding.2');
  a = await move(first.id, a, 'in_progress');
  await statusIs('non_compliant', 'moving its finding to in_progress', 'schema.ComplianceStatus.1');
  a = await move(first.id, a, 'resolved');
  flips.push({ to: 'compliant', cause: first.id, why: 'its last open finding was resolved' });
  await statusIs('compliant', 'resolving its only finding', 'complianceChanged.1');
  a = await move(first.id, a, 'open', { resolution: null });
  flips.push({ to: 'non_compliant', cause: first.id, why: 'its finding was reopened' });
  await statusIs('non_compliant', 'reopening its finding', 'schema.ComplianceStatus.1');
  const second = await ctx.create(findings, check, await bodyWith(ctx, findings.create, { policy_id: policyId }));
  await statusIs('non_compliant', 'a second open finding', 'schema.ComplianceStatus.1');
  a = await move(first.id, a, 'suppressed');
  await statusIs('non_compliant', 'suppressing one of two open findings', 'schema.ComplianceStatus.1');
  await move(second.id, json(second.exchange), 'open', { policy_id: null });
  flips.push({ to: 'compliant', cause: second.id, why: 'its last open finding was re-linked to no policy' });
  await statusIs('compliant', 're-linking its last open finding', 'complianceChanged.1');
  const third = await ctx.create(findings, check, await bodyWith(ctx, findings.create, { policy_id: policyId }));
  flips.push({ to: 'non_compliant', cause: third.id, why: 'an open finding was created' });
  check.conform(findings.delete, await ctx.send(findings.delete, { id: third.id }), { statuses: [204] }, 'deleting its only open finding');
  flips.push({ to: 'compliant', cause: null, why: 'its only open finding was deleted' });
  await statusIs('compliant', 'deleting its only open finding', 'deleteFinding.2');
  // Refused as an unknown field or ignored, but never written: the service derives it.
  const body = await bodyWith(ctx, policies.update, { compliance_status: 'non_compliant' });
  const written = await ctx.send(policies.update, { id: policyId, body });
  if (written.status < 300 && json(written).compliance_status === 'non_compliant')
    check.fail({
      at: policies.update,
      rule: 'schema.ComplianceStatus.2',
      observed: 'a PUT carrying compliance_status non_compliant wrote it',
      exchange: written,
    });
  if (!events) return { note: `${skipped}; compliance_status checked, compliance.changed not` };

  const label = ctx.model.webhooks.find((w) => w.event === 'compliance.changed')?.label ?? 'compliance.changed';
  const mine = () => distinct(events.deliveries(), 'compliance.changed').filter((d) => parseBody(d)?.data?.policy_id === policyId);
  const waited = await events.waitFor(() => mine().length >= flips.length, `${flips.length} compliance.changed for ${policyId}`);
  // A flip too many would come with the others; a short grace catches one that trails them.
  const grace = waited.met ? (await events.waitFor(() => mine().length > flips.length, 'no extra compliance.changed', 500)).waitedMs : 0;
  const got = mine().map((d) => parseBody(d)!.data!);
  const expected = flips.map((f) => `${f.to} (finding ${f.cause ?? 'null'}: ${f.why})`);
  const seen = got.map((d) => `${String(d.previous_status)}→${String(d.current_status)} (finding ${String(d.finding_id)})`);
  const details = [
    `expected, in any order: ${expected.join('; ')}`,
    `received: ${seen.join('; ') || 'none'}`,
    `the kit waited ${waited.waitedMs + grace} ms`,
  ];
  for (const data of got) {
    if (data.previous_status === data.current_status)
      check.fail({
        at: label,
        rule: 'complianceChanged.1',
        observed: `a compliance.changed with previous_status equal to current_status (${String(data.current_status)})`,
        details,
      });
  }
  if (got.length !== flips.length)
    check.fail({
      at: label,
      rule: ['updateFinding.4', 'schema.ComplianceChangedEvent.1'],
      observed: `${got.length} compliance.changed for ${flips.length} flips of the policy's compliance_status`,
      details,
    });
  const unmatched = [...flips];
  for (const data of got) {
    const index = unmatched.findIndex((f) => f.to === data.current_status && f.cause === data.finding_id);
    if (index < 0)
      check.fail({
        at: label,
        rule: ['complianceChanged.2', 'schema.ComplianceChangedEvent.4'],
        observed: `no flip explains compliance.changed to ${String(data.current_status)} with finding_id ${String(data.finding_id)}`,
        details,
      });
    unmatched.splice(index, 1);
  }
  return { note: `${flips.length} compliance.changed matched their flips (waited ${waited.waitedMs + grace} ms)` };
}
