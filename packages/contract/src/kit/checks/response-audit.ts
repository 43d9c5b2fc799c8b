// An audit of every answer the run saw, after a few answers of its own: errors are problem
// documents with a type the Errors table gives their status, validation problems list `errors` with
// JSON Pointers into the request, authenticated answers carry the rate-limit headers, ETags are
// strong, and no answer echoes an API key or a secret the kit sent.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import { type Check, found } from '../failure.ts';
import type { Exchange } from '../http.ts';
import { statedAt } from '../rules/stated.ts';
import type { Discrepancy } from '../verify.ts';
import { PROBLEM_FIELDS } from './shared/cross-cutting.ts';
import { documentedResources } from './shared/documented.ts';
import { REFUSALS } from './shared/operation.ts';
import { PROBLEM_BASE, type ProblemRow, problemTable } from './shared/problem-table.ts';
import { errorPointers, isRequestPointer } from './shared/request-pointers.ts';
import { bodyWith, crudNamed, type Json, newSecret } from './shared/rule-support.ts';

const RULES = [
  'authentication.4',
  'errors.1',
  'errors.2',
  'errors.5',
  'idempotency-and-concurrency.2',
  'rate-limits.2',
  'errors.19',
  'rotating-a-secret.5',
  'schema.Problem.1',
  'schema.Problem.6',
  'schema.Problem.9',
  'schema.ProblemError.2',
  'schema.ProblemError.3',
  'header.RateLimit.1',
  'header.RateLimitPolicy.1',
  'header.ETag.1',
  'response.BadRequest.2',
] as const;
type Rule = (typeof RULES)[number];

/** Last but the 429 probe: it audits every answer the run saw. */
export const responseAuditCheck = defineCheck({
  name: 'response-audit',
  column: 'audit',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 3, perCase: 0 },
  instances: (model) => {
    if (!documentedResources(model)) return [];
    const subjects = model.operations.filter((op) => op.kind !== 'unknown').map((op) => op.label);
    return [{ subjects, run: (ctx, check) => responseAudit(ctx, check) }];
  },
});

/** `response-audit`: a few answers of its own, then every exchange of the run so far. */
async function responseAudit(ctx: KitContext, check: Check<Rule>): Promise<'passed' | { note: string }> {
  const [policies, webhooks] = [crudNamed(ctx, 'policies'), crudNamed(ctx, 'webhooks')];
  await ctx.send(policies.list, { auth: REFUSALS['unknown-key-401'].auth, acceptRateLimit: true });
  const invalid = await ctx.send(policies.create, { body: { name: '', kit_unknown_field: 1 } });
  await ctx.send(policies.list, { query: { limit: '0' } });
  const { id } = await ctx.create(webhooks, check, await bodyWith(ctx, webhooks.create, { secret: newSecret() }));
  await ctx.send(webhooks.read, { id, ...(ctx.http.hasReadKey ? { auth: 'read' as const } : {}) });
  await ctx.http.send({ method: 'GET', path: `${policies.list.path}-kit-no-such-route` });

  const table = problemTable(ctx);
  const secrets = new Set<string>([
    ctx.options.apiKey,
    ...(ctx.options.readKey ? [ctx.options.readKey] : []),
    (REFUSALS['unknown-key-401'].auth as { token: string }).token,
  ]);
  // The secrets the kit made up itself: random enough that finding one in an answer is no accident
  // (a generated one may be "xxxxxxxxxxxxxxxx", which other generated fields contain too).
  for (const exchange of ctx.exchanges) {
    for (const match of exchange.request.body?.matchAll(/"secret"\s*:\s*"(kit_[0-9a-f]{32,})"/g) ?? []) secrets.add(match[1]!);
  }
  // Only the API's own answers: the simulator and other test-support routes are not the contract.
  const root = new URL(ctx.http.baseUrl).pathname.replace(/\/+$/, '');
  const prefixes = new Set(ctx.model.operations.map((op) => `/${op.path.split('/')[1]}`));
  const exchanges = ctx.exchanges.filter((e) =>
    [...prefixes].some((prefix) => new URL(e.request.url).pathname.slice(root.length).startsWith(prefix)),
  );
  for (const exchange of exchanges) {
    const violations = auditOne(exchange, table, secrets);
    if (violations.length > 0) check.failAll({ at: policies.list, found: violations, exchange });
  }
  const parts = everyPartNamed(invalid);
  if (parts.length > 0) check.failAll({ at: policies.create, found: parts, exchange: invalid });
  return { note: `${exchanges.length} answers audited` };
}

function auditOne(exchange: Exchange, table: ProblemRow[], secrets: Set<string>): Discrepancy[] {
  const violations: Discrepancy[] = [];
  const text = `${exchange.text}\n${[...exchange.headers].map(([n, v]) => `${n}: ${v}`).join('\n')}`;
  for (const secret of secrets) {
    if (secret && text.includes(secret))
      violations.push(
        ...found<Rule>({
          rule: 'authentication.4',
          observed: 'the answer contains an API key or a webhook secret the kit sent',
          details: [`${secret.slice(0, 4)}…`],
        }),
      );
  }
  const role = exchange.request.headers.Authorization?.replace(/^Bearer /, '');
  if ((role === '<api-key>' || role === '<read-key>') && exchange.status !== 401 && exchange.request.method !== 'OPTIONS') {
    for (const header of ['ratelimit', 'ratelimit-policy']) {
      if (!exchange.headers.has(header))
        violations.push(
          ...found<Rule>({ rule: 'rate-limits.2', observed: `an authenticated ${exchange.status} answer has no ${header} header` }),
        );
    }
    violations.push(...quotaHeaderViolations(exchange.headers.get('ratelimit-policy'), exchange.headers.get('ratelimit')));
  }
  const etag = exchange.headers.get('etag');
  if (etag?.startsWith('W/')) {
    for (const rule of ['header.ETag.1' as const, ...statedAt('/info/description', /strong `ETag`/)])
      violations.push(...found<Rule>({ rule, observed: `the ETag ${etag} is weak; the document promises strong ETags` }));
  }
  if (exchange.status >= 400) {
    const problem = exchange.json as Json | undefined;
    // A target under a database fault answers 503 anywhere: judged whenever one occurs.
    if ((exchange.status === 429 || exchange.status === 503) && !/^\d+$/.test(exchange.headers.get('retry-after') ?? '')) {
      // The Errors table's row for the answer states its Retry-After.
      const type =
        exchange.status === 429 ? 'rate-limited' : problem?.type === `${PROBLEM_BASE}storage-full` ? 'storage-full' : 'service-unavailable';
      const rule = table.find((row) => row.type === type)?.rule ?? [];
      violations.push(
        ...found<Rule>({
          rule,
          observed: `a ${exchange.status} without Retry-After in seconds (got ${JSON.stringify(exchange.headers.get('retry-after'))})`,
        }),
      );
    }
    const types = table.filter((row) => row.status === exchange.status);
    if (exchange.mediaType !== 'application/problem+json' || !problem) {
      const what = `a ${exchange.status} answer is ${exchange.mediaType || 'without a body'}, not a problem document`;
      violations.push(...found<Rule>({ rule: 'errors.1', observed: what }), ...found<Rule>({ rule: 'schema.Problem.1', observed: what }));
    } else if (PROBLEM_FIELDS.some((name) => !(name in problem))) {
      const missing = PROBLEM_FIELDS.filter((name) => !(name in problem));
      violations.push(...found<Rule>({ rule: 'errors.1', observed: `a ${exchange.status} problem without ${missing.join(', ')}` }));
    } else if (problem.status !== exchange.status) {
      violations.push(
        ...found<Rule>({
          rule: 'schema.Problem.6',
          observed: `a ${exchange.status} problem says status ${JSON.stringify(problem.status)}`,
        }),
      );
    } else if (types.length === 0) {
      violations.push(
        ...found<Rule>({ rule: 'errors.1', observed: `status ${exchange.status} has no problem type in the document's catalogue` }),
      );
    } else if (!types.some((row) => problem.type === PROBLEM_BASE + row.type)) {
      violations.push(
        ...found<Rule>({
          rule: types[0]!.rule,
          observed: `a ${exchange.status} has type ${String(problem.type)}; the catalogue's types for ${exchange.status}: ${types.map((r) => r.type).join(', ')}`,
        }),
      );
    } else {
      // Validation problems must list what is invalid; any problem that lists errors says, for each,
      // where (a pointer into the request) and what is wrong there.
      const errors = problem.errors as { pointer?: unknown; message?: unknown }[] | undefined;
      if (problem.type === `${PROBLEM_BASE}validation-error` && (!Array.isArray(errors) || errors.length === 0))
        violations.push(...found<Rule>({ rule: 'errors.2', observed: 'a validation problem without errors' }));
      for (const error of Array.isArray(errors) ? errors : []) {
        const pointer = String(error.pointer);
        if (!isRequestPointer(pointer)) {
          violations.push(
            ...found<Rule>({
              rule: 'schema.ProblemError.2',
              observed: `errors[].pointer ${JSON.stringify(error.pointer)} is not a JSON Pointer into { body, query, path, headers }`,
            }),
          );
        }
        if (typeof error.message === 'string' && error.message.trim() === '') {
          violations.push(
            ...found<Rule>({
              rule: 'schema.ProblemError.3',
              observed: `errors[].message at ${JSON.stringify(error.pointer)} is empty: it says nothing of what is wrong there`,
            }),
          );
        }
      }
    }
  }
  return violations;
}

const parameter = (header: string, name: string) => {
  const value = new RegExp(`(?:^|;)\\s*${name}=(\\d+)\\s*(?:;|$)`).exec(header)?.[1];
  return value === undefined ? undefined : Number(value);
};

/** `RateLimit-Policy` states `q` requests per `w` seconds; `RateLimit` the `r` left of them, reset in `t` (IETF draft 8). */
function quotaHeaderViolations(policy: string | null, limit: string | null): Discrepancy[] {
  if (policy === null || limit === null) return [];
  const [q, w, r, t] = [parameter(policy, 'q'), parameter(policy, 'w'), parameter(limit, 'r'), parameter(limit, 't')];
  if (q === undefined || w === undefined)
    return [
      ...found<Rule>({ rule: 'header.RateLimitPolicy.1', observed: `RateLimit-Policy ${policy} does not state q and w in whole numbers` }),
    ];
  if (r === undefined || t === undefined)
    return [...found<Rule>({ rule: 'header.RateLimit.1', observed: `RateLimit ${limit} does not state r and t in whole numbers` })];
  // Which of the two is wrong cannot be told from outside: the answer names both.
  if (r > q || t > w) {
    const what = `RateLimit ${limit} gives more than its policy ${policy} allows (r ≤ q, t ≤ w)`;
    return [
      ...found<Rule>({ rule: 'header.RateLimit.1', observed: what }),
      ...found<Rule>({ rule: 'header.RateLimitPolicy.1', observed: what }),
    ];
  }
  return [];
}

/** The kit's invalid create breaks an empty `name` and an unknown field: `errors` names each (the unknown field, or the body). */
function everyPartNamed(invalid: Exchange): Discrepancy[] {
  if (invalid.status !== 400) return [];
  const pointers = errorPointers(invalid);
  const unnamed = [['/body/name'], ['/body/kit_unknown_field', '/body']].filter((part) => !part.some((p) => pointers.includes(p)));
  if (unnamed.length === 0) return [];
  const what = `errors ${JSON.stringify(pointers)} name no invalid part at ${unnamed.map((part) => part[0]).join(', ')}`;
  return [...found<Rule>({ rule: 'schema.Problem.9', observed: what }), ...found<Rule>({ rule: 'response.BadRequest.2', observed: what })];
}
