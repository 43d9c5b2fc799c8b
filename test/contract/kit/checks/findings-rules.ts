// The finding life cycle and what derives from it, as the document states them in words: status
// `open` on create, `resolved_at` and `resolution` set on resolving and cleared on reopening, times
// that never move backwards, `policy_id` naming an existing policy, a policy's `compliance_status`
// and its `compliance.changed` events on every flip (and only then), and `409 policy-in-use`.
import type { KitContext } from '../context.ts';
import type { Exchange } from '../http.ts';
import type { RuleId } from '../rules/catalogue.ts';
import {
  bodyWith,
  breach,
  crudNamed,
  distinct,
  eventsSkipped,
  findingUpdate,
  type Json,
  parseBody,
  sink,
  subscribe,
} from './rule-support.ts';

const PROBLEMS = 'https://secmon.dev/problems/';
/** A well-formed policy id no policy has (26 Crockford base32 characters that a generator never issues). */
const UNKNOWN_POLICY = 'pol_00000000000000000000000000';

function json(exchange: Exchange): Json {
  return (exchange.json ?? {}) as Json;
}

/** `finding-lifecycle`: the fields the life cycle sets, clears and keeps. */
export async function findingLifecycle(ctx: KitContext, check: string): Promise<void> {
  const findings = crudNamed(ctx, 'findings');
  const { id, exchange } = await ctx.create(
    findings,
    check,
    await bodyWith(ctx, findings.create, { policy_id: null, first_seen_at: undefined, last_seen_at: undefined }),
  );
  const created = json(exchange);
  const label = findings.create.label;
  if (created.status !== 'open')
    breach(label, check, 'schema.FindingCreate.2', `a new finding has status ${String(created.status)}, not open`, [], exchange);
  if (created.resolved_at !== null || created.resolution !== null) {
    breach(
      label,
      check,
      'schema.Finding.2',
      `a new open finding has resolved_at ${JSON.stringify(created.resolved_at)} and resolution ${JSON.stringify(created.resolution)}; both must be null`,
      [],
      exchange,
    );
  }
  const createdAt = Date.parse(String(created.created_at));
  for (const field of ['first_seen_at', 'last_seen_at']) {
    // "default to the time of creation": the same instant as created_at, give or take the second a
    // service may round to.
    if (Math.abs(Date.parse(String(created[field])) - createdAt) > 1000) {
      breach(
        label,
        check,
        'schema.FindingCreate.2',
        `${field} defaulted to ${String(created[field])}, not the time of creation (created_at ${String(created.created_at)})`,
        [],
        exchange,
      );
    }
  }
  const backwards = await ctx.send(findings.create, {
    body: await bodyWith(ctx, findings.create, {
      policy_id: null,
      first_seen_at: '2026-01-02T00:00:00Z',
      last_seen_at: '2026-01-01T00:00:00Z',
    }),
  });
  if (backwards.status !== 400)
    breach(
      label,
      check,
      'schema.FindingCreate.2',
      `last_seen_at before first_seen_at answered ${backwards.status}, not 400`,
      [],
      backwards,
    );

  const update = findings.update.label;
  const put = async (body: Json, why: string, statuses = [200]) => {
    const answer = await ctx.send(findings.update, { id, body });
    ctx.expect(findings.update, check, answer, { statuses }, why);
    return answer;
  };
  const withoutResolution = await ctx.send(findings.update, { id, body: { ...findingUpdate(created, 'resolved'), resolution: null } });
  if (withoutResolution.status !== 400)
    breach(
      update,
      check,
      'schema.FindingUpdate.4',
      `resolving without a resolution answered ${withoutResolution.status}, not 400`,
      [],
      withoutResolution,
    );
  const wrongReason = await ctx.send(findings.update, {
    id,
    body: findingUpdate(created, 'resolved', { resolution: { reason: 'false_positive' } }),
  });
  if (wrongReason.status !== 400)
    breach(
      update,
      check,
      'schema.ResolutionReason.2',
      `resolving with the suppress reason false_positive answered ${wrongReason.status}, not 400`,
      [],
      wrongReason,
    );

  const resolved = json(await put(findingUpdate(created, 'resolved'), 'resolving'));
  if (typeof resolved.resolved_at !== 'string')
    breach(update, check, 'updateFinding.3', `resolving left resolved_at ${JSON.stringify(resolved.resolved_at)}`);
  const resolution = resolved.resolution as Json | null;
  if (resolution?.reason !== 'fixed')
    breach(update, check, 'schema.Finding.2', `the resolved finding's resolution is ${JSON.stringify(resolution)}, not the one sent`);
  if (resolution.comment !== '')
    breach(
      update,
      check,
      'schema.Resolution.4',
      `a resolution sent without comment reads back comment ${JSON.stringify(resolution.comment)}, not ""`,
    );
  for (const field of ['created_at', 'device_id', 'first_seen_at', 'last_seen_at']) {
    if (resolved[field] !== created[field])
      breach(
        update,
        check,
        field === 'created_at' ? 'updateFinding.1' : 'schema.FindingUpdate.2',
        `${field} changed on update: ${String(created[field])} → ${String(resolved[field])}`,
      );
  }
  if (Date.parse(String(resolved.updated_at)) < Date.parse(String(created.updated_at))) {
    breach(
      update,
      check,
      'updateFinding.1',
      `updated_at went backwards on update: ${String(created.updated_at)} → ${String(resolved.updated_at)}`,
    );
  }
  const reopened = json(await put(findingUpdate(resolved, 'open', { resolution: null }), 'reopening'));
  if (reopened.resolved_at !== null || reopened.resolution !== null) {
    breach(
      update,
      check,
      'updateFinding.3',
      `reopening left resolved_at ${JSON.stringify(reopened.resolved_at)} and resolution ${JSON.stringify(reopened.resolution)}; both must be null`,
    );
  }
  const suppressed = json(await put(findingUpdate(reopened, 'suppressed'), 'suppressing'));
  if (suppressed.resolved_at !== null)
    breach(
      update,
      check,
      'schema.Finding.3',
      `a suppressed finding has resolved_at ${String(suppressed.resolved_at)}; it is null in any status but resolved`,
    );
  if ((suppressed.resolution as Json | null)?.reason !== 'false_positive')
    breach(update, check, 'schema.Resolution.2', `the suppressed finding's resolution is ${JSON.stringify(suppressed.resolution)}`);
  const read = json(await ctx.send(findings.read, { id }));
  if (read.created_at !== created.created_at)
    breach(findings.read.label, check, 'updateFinding.1', `created_at changed: ${String(created.created_at)} → ${String(read.created_at)}`);
}

/** `references`: a `policy_id` must name an existing policy, on create and on update. */
export async function references(ctx: KitContext, check: string): Promise<void> {
  const findings = crudNamed(ctx, 'findings');
  const onCreate = await ctx.send(findings.create, { body: await bodyWith(ctx, findings.create, { policy_id: UNKNOWN_POLICY }) });
  expectProblem(
    findings.create.label,
    check,
    onCreate,
    400,
    'validation-error',
    'schema.FindingCreate.3',
    `creating a finding with policy_id ${UNKNOWN_POLICY}, which no policy has`,
  );
  const { id, exchange } = await ctx.create(findings, check, await bodyWith(ctx, findings.create, { policy_id: null }));
  const onUpdate = await ctx.send(findings.update, { id, body: findingUpdate(json(exchange), 'open', { policy_id: UNKNOWN_POLICY }) });
  expectProblem(
    findings.update.label,
    check,
    onUpdate,
    400,
    'validation-error',
    'errors.5',
    `updating a finding to policy_id ${UNKNOWN_POLICY}, which no policy has`,
  );
}

export function expectProblem(
  subject: string,
  check: string,
  exchange: Exchange,
  status: number,
  type: string,
  rule: RuleId,
  what: string,
): void {
  const problem = exchange.json as { type?: unknown } | undefined;
  if (exchange.status !== status || problem?.type !== PROBLEMS + type) {
    breach(
      subject,
      check,
      rule,
      `${what}: expected ${status} ${type}, got ${exchange.status} ${String(problem?.type ?? exchange.mediaType)}`,
      [],
      exchange,
    );
  }
}

/** `policy-in-use`: a policy open or in-progress findings reference cannot be deleted; afterwards the others lose the reference. */
export async function policyInUse(ctx: KitContext, check: string): Promise<void> {
  const [policies, findings] = [crudNamed(ctx, 'policies'), crudNamed(ctx, 'findings')];
  const { id: policyId } = await ctx.create(policies, check);
  const { id: findingId, exchange } = await ctx.create(findings, check, await bodyWith(ctx, findings.create, { policy_id: policyId }));
  const finding = json(exchange);
  for (const status of ['open', 'in_progress']) {
    if (status !== 'open')
      ctx.expect(
        findings.update,
        check,
        await ctx.send(findings.update, { id: findingId, body: findingUpdate(finding, status) }),
        { statuses: [200] },
        `moving the finding to ${status}`,
      );
    const refused = await ctx.send(policies.delete, { id: policyId });
    expectProblem(
      policies.delete.label,
      check,
      refused,
      409,
      'policy-in-use',
      'deletePolicy.2',
      `deleting a policy an ${status} finding references`,
    );
  }
  ctx.expect(
    findings.update,
    check,
    await ctx.send(findings.update, { id: findingId, body: findingUpdate(finding, 'resolved') }),
    { statuses: [200] },
    'resolving the finding',
  );
  ctx.expect(
    policies.delete,
    check,
    await ctx.send(policies.delete, { id: policyId }),
    { statuses: [204] },
    'deleting the policy once only a resolved finding references it',
  );
  const after = json(await ctx.send(findings.read, { id: findingId }));
  if (after.policy_id !== null)
    breach(
      findings.read.label,
      check,
      'deletePolicy.2',
      `the resolved finding still has policy_id ${String(after.policy_id)} after its policy was deleted; it must be null`,
    );
}

/**
 * `compliance`: the policy's derived status through every kind of change, and one
 * `compliance.changed` per flip (previous ≠ current, the causing finding or null for a delete),
 * none for a change that flips nothing.
 */
export async function compliance(ctx: KitContext, check: string): Promise<'passed' | { note: string }> {
  const [policies, findings] = [crudNamed(ctx, 'policies'), crudNamed(ctx, 'findings')];
  const skipped = eventsSkipped(ctx);
  const events = skipped ? undefined : await sink(ctx, 'compliance');
  const { id: policyId, exchange } = await ctx.create(policies, check);
  const policy = json(exchange);
  if (policy.compliance_status !== 'compliant' || policy.version !== 1) {
    breach(
      policies.create.label,
      check,
      'createPolicy.2',
      `a new policy has compliance_status ${String(policy.compliance_status)} and version ${String(policy.version)}; expected compliant and 1`,
      [],
      exchange,
    );
  }
  if (events) await subscribe(ctx, check, events.url, ['compliance.changed']);
  const flips: { to: string; cause: string | null; why: string }[] = [];
  const statusIs = async (expected: string, why: string, rule: RuleId) => {
    const read = json(await ctx.send(policies.read, { id: policyId }));
    if (read.compliance_status !== expected)
      breach(policies.read.label, check, rule, `after ${why} the policy is ${String(read.compliance_status)}, not ${expected}`);
  };
  const move = async (id: string, current: Json, status: string, extra: Json = {}) => {
    const answer = await ctx.send(findings.update, { id, body: findingUpdate(current, status, extra) });
    ctx.expect(findings.update, check, answer, { statuses: [200] }, `finding ${id} → ${status}`);
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
  ctx.expect(
    findings.delete,
    check,
    await ctx.send(findings.delete, { id: third.id }),
    { statuses: [204] },
    'deleting its only open finding',
  );
  flips.push({ to: 'compliant', cause: null, why: 'its only open finding was deleted' });
  await statusIs('compliant', 'deleting its only open finding', 'deleteFinding.2');
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
      breach(
        label,
        check,
        'complianceChanged.1',
        `a compliance.changed with previous_status equal to current_status (${String(data.current_status)})`,
        details,
      );
  }
  if (got.length !== flips.length)
    breach(
      label,
      check,
      'updateFinding.4',
      `${got.length} compliance.changed for ${flips.length} flips of the policy's compliance_status`,
      details,
    );
  const unmatched = [...flips];
  for (const data of got) {
    const index = unmatched.findIndex((f) => f.to === data.current_status && f.cause === data.finding_id);
    if (index < 0)
      breach(
        label,
        check,
        'complianceChanged.2',
        `no flip explains compliance.changed to ${String(data.current_status)} with finding_id ${String(data.finding_id)}`,
        details,
      );
    unmatched.splice(index, 1);
  }
  return { note: `${flips.length} compliance.changed matched their flips (waited ${waited.waitedMs + grace} ms)` };
}
