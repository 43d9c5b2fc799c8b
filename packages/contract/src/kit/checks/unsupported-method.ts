// `unsupported-method`: a method the document does not give a path answers 405 with an `Allow`
// header naming exactly the documented ones.
import { defineCheck, type Instance } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import type { OperationModel } from '../spec.ts';

const RULES = ['errors.11'] as const;
type Rule = (typeof RULES)[number];

export const unsupportedMethodCheck = defineCheck({
  name: 'unsupported-method',
  column: '405',
  rules: RULES,
  // An item path needs an existing id: a stateless target would answer for a made-up one (404 may come first).
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 1, perCase: 0 },
  instances: (model) => {
    const paths = new Map<string, OperationModel[]>();
    for (const op of model.operations.filter((candidate) => candidate.kind !== 'unknown'))
      paths.set(op.path, [...(paths.get(op.path) ?? []), op]);
    return [...paths.values()].map(
      (operations): Instance<Rule> => ({
        subjects: operations.map((op) => op.label),
        run: (ctx, check) => unsupportedMethod(ctx, operations, check),
      }),
    );
  },
});

async function unsupportedMethod(ctx: KitContext, operations: OperationModel[], check: Check<Rule>): Promise<void> {
  const [first] = operations;
  const documented = new Set(operations.map((op) => op.method.toUpperCase()));
  const method = ['PATCH', 'PUT', 'POST', 'DELETE'].find((candidate) => !documented.has(candidate));
  if (!first || !method) return;
  const exchange = await ctx.http.send({ method, path: ctx.pathOf(first, await ctx.fixture(ctx.resourceOf(first))), body: {} });
  if (exchange.status !== 405)
    check.fail({ at: first, observed: `${method} ${first.path} (not in the document) answered ${exchange.status}, not 405` });
  if (exchange.mediaType !== 'application/problem+json')
    check.fail({ at: first, observed: `the 405 is ${exchange.mediaType || 'without a body'}, not a problem document` });
  const allowed = new Set(
    (exchange.headers.get('allow') ?? '')
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter((m) => m && m !== 'HEAD' && m !== 'OPTIONS'),
  );
  const expected = [...documented].sort().join(', ');
  if ([...allowed].sort().join(', ') !== expected)
    check.fail({ at: first, observed: `Allow is "${exchange.headers.get('allow') ?? ''}"; the documented methods are ${expected}` });
}
