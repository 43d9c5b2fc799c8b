// `finding-lifecycle`: the fields the life cycle sets, clears and keeps.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { withResources } from './shared/documented.ts';
import { json } from './shared/finding-answers.ts';
import { errorPointers } from './shared/request-pointers.ts';
import { bodyWith, crudNamed, findingUpdate, type Json } from './shared/rule-support.ts';

const RULES = [
  'createFinding.1',
  'updateFinding.3',
  'schema.Finding.2',
  'schema.Finding.3',
  'schema.FindingCreate.2',
  'schema.ProblemError.2',
  'schema.FindingUpdate.2',
  'schema.FindingUpdate.4',
  'schema.Resolution.2',
  'schema.Resolution.4',
  'schema.ResolutionReason.2',
  'updateFinding.1',
] as const;
type Rule = (typeof RULES)[number];

export const findingLifecycleCheck = defineCheck({
  name: 'finding-lifecycle',
  column: 'life',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 8, perCase: 0 },
  instances: (model) =>
    withResources(model, ({ findings }) => ({
      subjects: [findings.update.label, findings.create.label, findings.read.label],
      run: (ctx, check) => findingLifecycle(ctx, check),
    })),
});

async function findingLifecycle(ctx: KitContext, check: Check<Rule>): Promise<void> {
  const findings = crudNamed(ctx, 'findings');
  const { id, exchange } = await ctx.create(
    findings,
    check,
    await bodyWith(ctx, findings.create, { policy_id: null, first_seen_at: undefined, last_seen_at: undefined }),
  );
  const created = json(exchange);
  const label = findings.create.label;
  if (created.status !== 'open')
    check.fail({
      at: label,
      rule: 'schema.FindingCreate.2',
      observed: `a new finding has status ${String(created.status)}, not open`,
      exchange,
    });
  if (created.resolved_at !== null || created.resolution !== null) {
    check.fail({
      at: label,
      rule: 'schema.Finding.2',
      observed: `a new open finding has resolved_at ${JSON.stringify(created.resolved_at)} and resolution ${JSON.stringify(created.resolution)}; both must be null`,
      exchange,
    });
  }
  const createdAt = Date.parse(String(created.created_at));
  for (const field of ['first_seen_at', 'last_seen_at']) {
    // "default to the time of creation": the same instant as created_at, give or take the second a
    // service may round to.
    if (Math.abs(Date.parse(String(created[field])) - createdAt) > 1000) {
      check.fail({
        at: label,
        rule: 'schema.FindingCreate.2',
        observed: `${field} defaulted to ${String(created[field])}, not the time of creation (created_at ${String(created.created_at)})`,
        exchange,
      });
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
    check.fail({
      at: label,
      rule: 'schema.FindingCreate.2',
      observed: `last_seen_at before first_seen_at answered ${backwards.status}, not 400`,
      exchange: backwards,
    });
  // Either timestamp is the invalid part (or the body as a whole); an error that points elsewhere names none.
  const named = errorPointers(backwards);
  const timestamps = ['/body/first_seen_at', '/body/last_seen_at', '/body'];
  if (backwards.status === 400 && named.length > 0 && !named.some((pointer) => timestamps.includes(pointer as string)))
    check.fail({
      at: label,
      rule: 'schema.ProblemError.2',
      observed: `last_seen_at before first_seen_at refused, but no error points at ${timestamps.join(', ')}: ${JSON.stringify(named)}`,
      exchange: backwards,
    });

  const update = findings.update.label;
  const put = async (body: Json, why: string, statuses = [200]) => {
    const answer = await ctx.send(findings.update, { id, body });
    check.conform(findings.update, answer, { statuses }, why);
    return answer;
  };
  const withoutResolution = await ctx.send(findings.update, { id, body: { ...findingUpdate(created, 'resolved'), resolution: null } });
  if (withoutResolution.status !== 400)
    check.fail({
      at: update,
      rule: 'schema.FindingUpdate.4',
      observed: `resolving without a resolution answered ${withoutResolution.status}, not 400`,
      exchange: withoutResolution,
    });
  const wrongReason = await ctx.send(findings.update, {
    id,
    body: findingUpdate(created, 'resolved', { resolution: { reason: 'false_positive' } }),
  });
  if (wrongReason.status !== 400)
    check.fail({
      at: update,
      rule: 'schema.ResolutionReason.2',
      observed: `resolving with the suppress reason false_positive answered ${wrongReason.status}, not 400`,
      exchange: wrongReason,
    });

  const resolved = json(await put(findingUpdate(created, 'resolved'), 'resolving'));
  if (typeof resolved.resolved_at !== 'string')
    check.fail({ at: update, rule: 'updateFinding.3', observed: `resolving left resolved_at ${JSON.stringify(resolved.resolved_at)}` });
  const resolution = resolved.resolution as Json | null;
  if (resolution?.reason !== 'fixed')
    check.fail({
      at: update,
      rule: 'schema.Finding.2',
      observed: `the resolved finding's resolution is ${JSON.stringify(resolution)}, not the one sent`,
    });
  if (resolution.comment !== '')
    check.fail({
      at: update,
      rule: 'schema.Resolution.4',
      observed: `a resolution sent without comment reads back comment ${JSON.stringify(resolution.comment)}, not ""`,
    });
  for (const field of ['created_at', 'device_id', 'first_seen_at', 'last_seen_at']) {
    if (resolved[field] !== created[field])
      check.fail({
        at: update,
        rule: field === 'created_at' ? 'updateFinding.1' : 'schema.FindingUpdate.2',
        observed: `${field} changed on update: ${String(created[field])} → ${String(resolved[field])}`,
      });
  }
  if (Date.parse(String(resolved.updated_at)) < Date.parse(String(created.updated_at))) {
    check.fail({
      at: update,
      rule: 'updateFinding.1',
      observed: `updated_at went backwards on update: ${String(created.updated_at)} → ${String(resolved.updated_at)}`,
    });
  }
  const reopened = json(await put(findingUpdate(resolved, 'open', { resolution: null }), 'reopening'));
  if (reopened.resolved_at !== null || reopened.resolution !== null) {
    check.fail({
      at: update,
      rule: 'updateFinding.3',
      observed: `reopening left resolved_at ${JSON.stringify(reopened.resolved_at)} and resolution ${JSON.stringify(reopened.resolution)}; both must be null`,
    });
  }
  const suppressed = json(await put(findingUpdate(reopened, 'suppressed'), 'suppressing'));
  if (suppressed.resolved_at !== null)
    check.fail({
      at: update,
      rule: 'schema.Finding.3',
      observed: `a suppressed finding has resolved_at ${String(suppressed.resolved_at)}; it is null in any status but resolved`,
    });
  if ((suppressed.resolution as Json | null)?.reason !== 'false_positive')
    check.fail({
      at: update,
      rule: 'schema.Resolution.2',
      observed: `the suppressed finding's resolution is ${JSON.stringify(suppressed.resolution)}`,
    });
  const read = json(await ctx.send(findings.read, { id }));
  if (read.created_at !== created.created_at)
    check.fail({
      at: findings.read,
      rule: 'updateFinding.1',
      observed: `created_at changed: ${String(created.created_at)} → ${String(read.created_at)}`,
    });
}
