// `valid-input`: generated valid bodies and query parameters: each a 2xx.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { statedAt } from '../rules/stated.ts';
import { type OperationModel, successStatuses } from '../spec.ts';
import { filterByExistingValues, filtersHold } from './shared/filters.ts';
import { eachOperation, freshItem, idFor } from './shared/operation.ts';

const RULES = [
  'webhooks.1',
  'versioning.14',
  'listPolicies.3',
  'listFindings.3',
  'listFindings.6',
  'listFindings.7',
  'listFindings.8',
  'listWebhooks.3',
  'listWebhooks.6',
  'param.EnabledFilter.1',
  'param.SeverityFilter.1',
] as const;
type Rule = (typeof RULES)[number];

export const validInputCheck = defineCheck({
  name: 'valid-input',
  column: 'valid',
  rules: RULES,
  needs: {},
  exercisesSuccess: true,
  cost: { fixed: 2, perCase: 2 },
  instances: (model, options) =>
    eachOperation(
      model,
      (op) => op.body !== undefined || op.params.some((p) => p.in === 'query'),
      (op) => (ctx, check, cases) => validInput(ctx, op, check, freshItem(model, op, options.profile === 'stateful'), cases),
    ),
});

async function validInput(ctx: KitContext, op: OperationModel, check: Check<Rule>, freshItem: boolean, cases: number): Promise<void> {
  const statuses = successStatuses(op);
  const bodies = await ctx.validBodies(op, cases);
  for (const body of bodies) {
    const id = await idFor(ctx, op, freshItem);
    const exchange = await ctx.send(op, { id, body });
    // A valid webhook body refused as invalid is a subscription the document says a webhook makes.
    const refused = exchange.status === 400 || exchange.status === 422;
    const subscribing = op.path.startsWith('/v1/webhooks') && refused ? statedAt('/info/description', /^A webhook subscribes/) : [];
    if (subscribing.length > 0)
      check.fail({
        at: op,
        rule: subscribing,
        observed: `a valid webhook body was refused with ${exchange.status}`,
        details: [JSON.stringify(body)],
        exchange,
      });
    check.conform(op, exchange, { statuses }, 'valid generated body');
  }
  for (const query of ctx.validQueries(op, cases)) {
    const id = await idFor(ctx, op, false);
    const exchange = await ctx.send(op, { id, query });
    check.conform(op, exchange, { statuses }, 'valid generated query');
    if (ctx.options.profile === 'stateful') filtersHold(op, check, query, exchange.json);
  }
  if (ctx.options.profile === 'stateful' && op.kind === 'list') await filterByExistingValues(ctx, op, check, cases);
}
