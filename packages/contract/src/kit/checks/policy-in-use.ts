// `policy-in-use`: a policy open or in-progress findings reference cannot be deleted; afterwards
// the others lose the reference.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { withResources } from './shared/documented.ts';
import { expectProblem, json } from './shared/finding-answers.ts';
import { bodyWith, crudNamed, findingUpdate } from './shared/rule-support.ts';

const RULES = ['deletePolicy.2', 'deletePolicy.6'] as const;
type Rule = (typeof RULES)[number];

export const policyInUseCheck = defineCheck({
  name: 'policy-in-use',
  column: 'inuse',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 8, perCase: 0 },
  instances: (model) =>
    withResources(model, (found) => ({
      subjects: [found.policies.delete.label, found.findings.update.label],
      run: (ctx, check) => policyInUse(ctx, check),
    })),
});

async function policyInUse(ctx: KitContext, check: Check<Rule>): Promise<void> {
  const [policies, findings] = [crudNamed(ctx, 'policies'), crudNamed(ctx, 'findings')];
  const { id: policyId } = await ctx.create(policies, check);
  const { id: findingId, exchange } = await ctx.create(findings, check, await bodyWith(ctx, findings.create, { policy_id: policyId }));
  const finding = json(exchange);
  for (const status of ['open', 'in_progress']) {
    if (status !== 'open')
      check.conform(
        findings.update,
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
  check.conform(
    findings.update,
    await ctx.send(findings.update, { id: findingId, body: findingUpdate(finding, 'resolved') }),
    { statuses: [200] },
    'resolving the finding',
  );
  check.conform(
    policies.delete,
    await ctx.send(policies.delete, { id: policyId }),
    { statuses: [204] },
    'deleting the policy once only a resolved finding references it',
  );
  const after = json(await ctx.send(findings.read, { id: findingId }));
  if (after.policy_id !== null)
    check.fail({
      at: findings.read,
      rule: 'deletePolicy.2',
      observed: `the resolved finding still has policy_id ${String(after.policy_id)} after its policy was deleted; it must be null`,
    });
}
