// `unknown-key-401`: a request with a key the service does not know is refused with 401 (429 over
// the address's failed-authentication limit).
import { defineCheck } from '../check.ts';
import {
  eachOperation,
  FAILED_AUTHENTICATION,
  judgeFailedAuthentication,
  REFUSALS,
  refusable,
  refusedRequest,
} from './shared/operation.ts';

export const unknownKeyCheck = defineCheck({
  name: 'unknown-key-401',
  column: '401key',
  rules: FAILED_AUTHENTICATION,
  needs: {},
  exercisesSuccess: false,
  cost: { fixed: 0, perCase: 0 },
  instances: (model) =>
    eachOperation(model, refusable, (op) => async (ctx, check) => {
      const refusal = REFUSALS['unknown-key-401'];
      return judgeFailedAuthentication(ctx, op, check, await refusedRequest(ctx, op, refusal), refusal);
    }),
});
