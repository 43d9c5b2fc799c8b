// The finding life cycle and what derives from it, as the document states them in words: status
// `open` on create, `resolved_at` and `resolution` set on resolving and cleared on reopening, times
// that never move backwards, `policy_id` naming an existing policy, and `409 policy-in-use`.
import type { KitContext } from '../context.ts';
import type { Exchange } from '../http.ts';
import type { RuleId } from '../rules/catalogue.ts';
import { bodyWith, breach, crudNamed, findingUpdate, type Json } from './rule-support.ts';

const PROBLEMS = 'https://secmon.dev/problems/';
/** A well-formed policy id no policy has (26 Crockford base32 characters that a generator never issues). */
const UNKNOWN_POLICY = 'pol_00000000000000000000000000';

export function json(exchange: Exchange): Json {
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
      // The 409's own description names in-progress findings beside open ones.
      status === 'open' ? 'deletePolicy.2' : 'deletePolicy.6',
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
