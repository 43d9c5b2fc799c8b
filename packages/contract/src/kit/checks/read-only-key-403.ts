// `read-only-key-403`: a write sent with a key that has only the read scope is refused with 403.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { sentenceRule } from '../rules/stated.ts';
import type { OperationModel } from '../spec.ts';
import { eachOperation, REFUSALS, refusedRequest } from './shared/operation.ts';

const RULES = [
  'authentication.2',
  'authentication.3',
  'createPolicy.5',
  'updatePolicy.4',
  'deletePolicy.4',
  'createFinding.5',
  'updateFinding.6',
  'deleteFinding.4',
  'createWebhook.6',
  'updateWebhook.5',
  'deleteWebhook.4',
  'security.bearerAuth.2',
  'response.Forbidden.1',
] as const;
type Rule = (typeof RULES)[number];

export const readOnlyKeyCheck = defineCheck({
  name: 'read-only-key-403',
  column: '403',
  rules: RULES,
  needs: { readKey: true },
  exercisesSuccess: false,
  cost: { fixed: 0, perCase: 0 },
  instances: (model) =>
    eachOperation(
      model,
      (op) => op.scopes.includes('write') && op.responses.has('403'),
      (op) => (ctx, check) => readOnlyKey(ctx, op, check),
    ),
});

async function readOnlyKey(ctx: KitContext, op: OperationModel, check: Check<Rule>): Promise<void> {
  const refusal = REFUSALS['read-only-key-403'];
  const exchange = await refusedRequest(ctx, op, refusal);
  // A write the read scope does not allow breaks the operation's own "Needs the `write` scope" too.
  const scope = sentenceRule(op, /`write` scope/);
  check.conform(op, exchange, { statuses: [refusal.status], rules: [...refusal.rules, ...scope] }, refusal.note);
}
