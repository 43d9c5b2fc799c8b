// `references`: a `policy_id` must name an existing policy, on create and on update.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { withResources } from './shared/documented.ts';
import { expectProblem, json, UNKNOWN_POLICY } from './shared/finding-answers.ts';
import { bodyWith, crudNamed, findingUpdate } from './shared/rule-support.ts';

const RULES = ['errors.5', 'schema.FindingCreate.3'] as const;
type Rule = (typeof RULES)[number];

export const referencesCheck = defineCheck({
  name: 'references',
  column: 'refs',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 4, perCase: 0 },
  instances: (model) =>
    withResources(model, (found) => ({
      subjects: [found.findings.create.label, found.findings.update.label],
      run: (ctx, check) => references(ctx, check),
    })),
});

async function references(ctx: KitContext, check: Check<Rule>): Promise<void> {
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
