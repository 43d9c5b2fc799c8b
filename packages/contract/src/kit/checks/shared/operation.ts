// What the checks every operation gets from its own entry in the document share: one instance per
// operation, the id an item path takes, and a request refused for its credentials with what the
// document answers to a missing, unknown or under-scoped key.
import type { Instance } from '../../check.ts';
import type { KitContext } from '../../context.ts';
import type { Check } from '../../failure.ts';
import type { Credential, Exchange } from '../../http.ts';
import type { RuleId } from '../../rules/catalogue.ts';
import { transitionsOf } from '../../semantics.ts';
import type { ContractModel, OperationModel } from '../../spec.ts';

const operations = (model: ContractModel) => model.operations.filter((op) => op.kind !== 'unknown');

/** One instance per operation `keep` accepts, filed under it. */
export const eachOperation = <R extends RuleId>(
  model: ContractModel,
  keep: (op: OperationModel) => boolean,
  run: (op: OperationModel) => Instance<R>['run'],
): Instance<R>[] =>
  operations(model)
    .filter(keep)
    .map((op) => ({ subjects: [op.label], run: run(op) }));

/** Updates of a resource with a state machine start from a fresh resource, so each is legal. */
export function freshItem(model: ContractModel, op: OperationModel, stateful: boolean): boolean {
  const resource = model.resources.find((r) => r.name === op.resource);
  return stateful && op.kind === 'update' && resource !== undefined && transitionsOf(model, resource.update) !== undefined;
}

/** The id to put in an item path: a fresh resource for deletes and state-machine updates. */
export async function idFor(ctx: KitContext, op: OperationModel, fresh: boolean): Promise<string | undefined> {
  if (!op.params.some((p) => p.in === 'path')) return undefined;
  return ctx.fixture(ctx.resourceOf(op), fresh);
}

export const refusable = (op: OperationModel) => op.scopes.length > 0 && op.responses.has('401');

/** How a request is made without acceptable credentials, and what the contract answers. */
export const REFUSALS = {
  'no-credentials-401': {
    auth: 'none',
    status: 401,
    note: 'no Authorization header',
    rules: ['authentication.3', 'response.Unauthorized.1'],
  },
  'unknown-key-401': {
    auth: { token: 'contract-kit-unknown-key-0000', role: '<unknown-key>' },
    status: 401,
    note: 'a key the service does not know',
    rules: ['authentication.3', 'response.Unauthorized.1'],
  },
  'read-only-key-403': {
    auth: 'read',
    status: 403,
    note: 'a key with only the read scope',
    rules: ['authentication.2', 'authentication.3', 'security.bearerAuth.2', 'response.Forbidden.1'],
  },
} as const satisfies Record<string, { auth: Credential; status: number; note: string; rules: readonly RuleId[] }>;

type Refusal = (typeof REFUSALS)[keyof typeof REFUSALS];
type FailedAuthentication = (typeof REFUSALS)['no-credentials-401' | 'unknown-key-401'];

/** A well-formed request (valid body, existing id) whose only fault is its credentials. */
export async function refusedRequest(ctx: KitContext, op: OperationModel, { auth, status }: Refusal): Promise<Exchange> {
  const id = await idFor(ctx, op, false);
  const [body] = await ctx.validBodies(op, 1);
  return ctx.send(op, { id, auth, acceptRateLimit: status === 401, ...(body === undefined ? {} : { body }) });
}

/** What both 401 checks judge: a missing or unknown key is refused, over the address's limit with a 429. */
export const FAILED_AUTHENTICATION = [
  'authentication.3',
  'errors.19',
  'rate-limits.5',
  'rate-limits.6',
  'rate-limits.7',
  'header.RateLimit.2',
  'header.RateLimitPolicy.2',
  'response.Unauthorized.1',
  'response.Unauthorized.3',
  'response.TooManyRequests.1',
] as const;

/**
 * The answer to a request without a key the service accepts. Failed authentication is limited per
 * client address: over that limit the document answers `429 rate-limited` with `Retry-After` and
 * the address's RateLimit policy instead of `401`, which the check accepts as such (waiting the
 * window out would cost a minute); a valid key from the same address must still be served meanwhile.
 */
export async function judgeFailedAuthentication(
  ctx: KitContext,
  op: OperationModel,
  check: Check<(typeof FAILED_AUTHENTICATION)[number]>,
  exchange: Exchange,
  { note, rules }: FailedAuthentication,
): Promise<void | { note: string }> {
  // A client error that says when to come back refuses the address, which the document does with 429.
  const throttled = exchange.status >= 400 && exchange.status < 500 && exchange.headers.has('retry-after');
  if (throttled && exchange.status !== 401 && exchange.status !== 429)
    check.fail({
      at: op,
      rule: 'response.Unauthorized.3',
      observed: `failed authentication throttled with ${exchange.status}, not 429`,
      exchange,
    });
  if (exchange.status !== 429) return check.conform(op, exchange, { statuses: [401], rules }, note);
  // The problem type is the response audit's to judge (the catalogue's type for 429).
  const missing = ['retry-after', 'ratelimit-policy', 'ratelimit'].filter((name) => !exchange.headers.has(name));
  if (missing.length > 0)
    check.fail({ at: op, rule: 'rate-limits.5', observed: `a 429 for failed authentication lacks ${missing.join(', ')}`, exchange });
  check.conform(op, exchange, { statuses: [429] }, `${note}, while the address is over its failed-authentication limit`);
  const list = op.kind === 'list' ? op : ctx.resourceOf(op).list;
  if (!list) return { note: '429 rate-limited: the address is over its failed-authentication limit' };
  if (Number(/;\s*r=(\d+)/.exec(exchange.headers.get('ratelimit') ?? '')?.[1]) !== 0)
    check.fail({
      at: op,
      rule: 'header.RateLimit.2',
      observed: `the 429 says failures remain: RateLimit ${String(exchange.headers.get('ratelimit'))}`,
    });
  const served = await ctx.send(list, { query: { limit: '1' } });
  const policyName = (answer: Exchange) => /^\s*"([^"]*)"/.exec(answer.headers.get('ratelimit-policy') ?? '')?.[1];
  if (served.status === 200 && policyName(served) === policyName(exchange)) {
    const observed = `the 429 for failed authentication names the key's policy ${String(exchange.headers.get('ratelimit-policy'))}`;
    check.fail({ at: op, rule: ['rate-limits.6', 'header.RateLimitPolicy.2'], observed, exchange });
  }
  if (served.status !== 200)
    check.fail({
      at: op,
      rule: 'rate-limits.7',
      observed: `while the address was over its failed-authentication limit, a request with the valid key got ${served.status}`,
      exchange: served,
    });
  return {
    note: `429 rate-limited (the address is over its failed-authentication limit; policy ${String(exchange.headers.get('ratelimit-policy'))}); a valid key was still served`,
  };
}
