// `invalid-body`: generated invalid bodies, malformed JSON, an oversized body and a wrong media
// type are each refused with a 4xx problem, never accepted or answered with a 5xx.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { statedOfBodyPart } from '../rules/stated.ts';
import { bodyLimitBytes } from '../semantics.ts';
import type { OperationModel } from '../spec.ts';
import { eachOperation, idFor } from './shared/operation.ts';

/** What the invalid-body check judges; an accepted invalid part names the rules its schema's description states. */
const RULES = [
  'limits.1',
  'limits.2',
  'schema.ComplianceStatus.2',
  'schema.WebhookEvents.1',
  'schema.WebhookUrl.2',
  'response.PayloadTooLarge.1',
  'response.UnsupportedMediaType.1',
] as const;
type Rule = (typeof RULES)[number];

export const invalidBodyCheck = defineCheck({
  name: 'invalid-body',
  column: 'badbody',
  rules: RULES,
  needs: {},
  exercisesSuccess: false,
  cost: { fixed: 1, perCase: 1 },
  instances: (model) =>
    eachOperation(
      model,
      (op) => op.body !== undefined,
      (op) => (ctx, check, cases) => invalidBodies(ctx, op, check, cases),
    ),
});

/** Generated invalid bodies, malformed JSON, an oversized body and a wrong media type: each a 4xx problem. */
async function invalidBodies(ctx: KitContext, op: OperationModel, check: Check<Rule>, cases: number): Promise<void> {
  const judged: readonly string[] = RULES;
  const id = await idFor(ctx, op, false);
  const invalid = await ctx.invalidBodies(op, cases);
  if (invalid.length === 0) throw new Error(`${op.label}: the generator produced no invalid body`);
  for (const { mutation, body } of invalid) {
    const exchange = await ctx.send(op, { id, body });
    const what = `invalid body: ${mutation.at} ${mutation.what}`;
    const stated = op.body ? statedOfBodyPart(ctx.model.doc, op.body.pointer, mutation.at, judged) : [];
    if (exchange.status < 400 && stated.length > 0)
      check.fail({ at: op, rule: stated, observed: `expected 4xx (${what}), got ${exchange.status}`, exchange });
    check.conform(op, exchange, { range: '4xx' }, what);
  }
  const limit = bodyLimitBytes(ctx.model.doc);
  const fixed = [
    async () => {
      const malformed = await ctx.send(op, { id, rawBody: '{"unterminated": ' });
      check.conform(op, malformed, { statuses: [400] }, 'malformed JSON');
    },
    ...(op.responses.has('413') && limit
      ? [
          async () => {
            const tooLarge = await ctx.send(op, { id, rawBody: JSON.stringify({ description: 'x'.repeat(limit + 1024) }) });
            const rules: Rule[] = ['response.PayloadTooLarge.1'];
            check.conform(op, tooLarge, { statuses: [413], rules }, `a body over the documented ${limit / 1024 / 1024} MiB`);
          },
          async () => {
            // Whitespace is the one way to a large body that every schema bound allows: a body under the limit is read.
            const underLimit = await ctx.send(op, { id, rawBody: `{${' '.repeat(limit - 1024)}"kit_unknown_field": 1}` });
            if (underLimit.status === 413)
              check.fail({ at: op, rule: 'limits.1', observed: `a body of ${limit - 1000} bytes answered 413`, exchange: underLimit });
          },
        ]
      : []),
    ...(op.responses.has('415')
      ? [
          async () => {
            const [valid] = await ctx.validBodies(op, 1);
            const wrongType = await ctx.send(op, { id, rawBody: JSON.stringify(valid), contentType: 'text/plain' });
            const rules: Rule[] = ['response.UnsupportedMediaType.1'];
            check.conform(op, wrongType, { statuses: [415], rules }, 'Content-Type text/plain');
          },
        ]
      : []),
  ];
  // Repeats across operations that a time budget samples down with the generated cases: with fewer
  // than all of them, each operation starts at another one, so every kind is still sent to some.
  const start = ctx.model.operations.indexOf(op);
  for (let i = 0; i < Math.min(fixed.length, cases); i++) await fixed[(start + i) % fixed.length]!();
}
