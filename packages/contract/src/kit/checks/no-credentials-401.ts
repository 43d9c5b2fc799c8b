// `no-credentials-401`: a request without an Authorization header is refused with 401 naming the
// Bearer scheme (429 over the address's failed-authentication limit).
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import type { OperationModel } from '../spec.ts';
import {
  eachOperation,
  FAILED_AUTHENTICATION,
  judgeFailedAuthentication,
  REFUSALS,
  refusable,
  refusedRequest,
} from './shared/operation.ts';

const RULES = [
  'authentication.1',
  'listPolicies.5',
  'security.bearerAuth.1',
  'header.WWWAuthenticate.1',
  ...FAILED_AUTHENTICATION,
] as const;
type Rule = (typeof RULES)[number];

export const noCredentialsCheck = defineCheck({
  name: 'no-credentials-401',
  column: '401',
  rules: RULES,
  needs: {},
  exercisesSuccess: false,
  cost: { fixed: 0, perCase: 0 },
  instances: (model) => eachOperation(model, refusable, (op) => (ctx, check) => noCredentials(ctx, op, check)),
});

async function noCredentials(ctx: KitContext, op: OperationModel, check: Check<Rule>): Promise<void | { note: string }> {
  const refusal = REFUSALS['no-credentials-401'];
  const exchange = await refusedRequest(ctx, op, refusal);
  const scheme = exchange.headers.get('www-authenticate');
  if (exchange.status === 401 && !/^bearer\b/i.test(scheme ?? ''))
    check.fail({ at: op, rule: 'header.WWWAuthenticate.1', observed: `the 401 names the scheme ${String(scheme)}, not Bearer`, exchange });
  return judgeFailedAuthentication(ctx, op, check, exchange, refusal);
}
