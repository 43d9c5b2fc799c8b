// An audit of every answer the run saw, after a few answers of its own: errors are problem
// documents with a type the Errors table gives their status, validation problems list `errors` with
// JSON Pointers into the request, authenticated answers carry the rate-limit headers, ETags are
// strong, and no answer echoes an API key or a secret the kit sent.
import type { KitContext } from '../context.ts';
import type { Exchange } from '../http.ts';
import { statedAt } from '../rules/stated.ts';
import { ContractViolation, type Discrepancy } from '../verify.ts';
import { REFUSALS } from './operation.ts';
import { PROBLEM_BASE, type ProblemRow, problemTable } from './problem-rules.ts';
import { bodyWith, crudNamed, type Json, newSecret, ruleViolation } from './rule-support.ts';

const JSON_POINTER = /^(\/([^~/]|~[01])*)*$/;
const REQUEST_PARTS = new Set(['body', 'query', 'path', 'headers']);

/** `response-audit`: a few answers of its own, then every exchange of the run so far. */
export async function responseAudit(ctx: KitContext, check: string): Promise<'passed' | { note: string }> {
  const [policies, webhooks] = [crudNamed(ctx, 'policies'), crudNamed(ctx, 'webhooks')];
  await ctx.send(policies.list, { auth: REFUSALS['unknown-key-401'].auth, acceptRateLimit: true });
  await ctx.send(policies.create, { body: { name: '', kit_unknown_field: 1 } });
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
    if (violations.length > 0) throw new ContractViolation(policies.list.label, check, violations, exchange);
  }
  return { note: `${exchanges.length} answers audited` };
}

function auditOne(exchange: Exchange, table: ProblemRow[], secrets: Set<string>): Discrepancy[] {
  const violations: Discrepancy[] = [];
  const text = `${exchange.text}\n${[...exchange.headers].map(([n, v]) => `${n}: ${v}`).join('\n')}`;
  for (const secret of secrets) {
    if (secret && text.includes(secret))
      violations.push(
        ruleViolation('authentication.4', 'the answer contains an API key or a webhook secret the kit sent', [`${secret.slice(0, 4)}…`]),
      );
  }
  const role = exchange.request.headers.Authorization?.replace(/^Bearer /, '');
  if ((role === '<api-key>' || role === '<read-key>') && exchange.status !== 401 && exchange.request.method !== 'OPTIONS') {
    for (const header of ['ratelimit', 'ratelimit-policy']) {
      if (!exchange.headers.has(header))
        violations.push(ruleViolation('rate-limits.2', `an authenticated ${exchange.status} answer has no ${header} header`));
    }
  }
  const etag = exchange.headers.get('etag');
  if (etag?.startsWith('W/')) {
    for (const rule of ['header.ETag.1' as const, ...statedAt('/info/description', /strong `ETag`/)])
      violations.push(ruleViolation(rule, `the ETag ${etag} is weak; the document promises strong ETags`));
  }
  if (exchange.status >= 400) {
    const problem = exchange.json as Json | undefined;
    // A target under a database fault answers 503 anywhere: judged whenever one occurs.
    if ((exchange.status === 429 || exchange.status === 503) && !/^\d+$/.test(exchange.headers.get('retry-after') ?? '')) {
      const rule = exchange.status === 429 ? 'errors.19' : problem?.type === `${PROBLEM_BASE}storage-full` ? 'errors.23' : 'errors.22';
      violations.push(
        ruleViolation(
          rule,
          `a ${exchange.status} without Retry-After in seconds (got ${JSON.stringify(exchange.headers.get('retry-after'))})`,
        ),
      );
    }
    const types = table.filter((row) => row.status === exchange.status);
    if (exchange.mediaType !== 'application/problem+json' || !problem) {
      violations.push(
        ruleViolation('errors.1', `a ${exchange.status} answer is ${exchange.mediaType || 'without a body'}, not a problem document`),
      );
    } else if (types.length === 0) {
      violations.push(ruleViolation('errors.1', `status ${exchange.status} has no problem type in the document's catalogue`));
    } else if (!types.some((row) => problem.type === PROBLEM_BASE + row.type)) {
      violations.push(
        ruleViolation(
          types[0]!.rule,
          `a ${exchange.status} has type ${String(problem.type)}; the catalogue's types for ${exchange.status}: ${types.map((r) => r.type).join(', ')}`,
        ),
      );
    } else if (problem.type === `${PROBLEM_BASE}validation-error`) {
      const errors = problem.errors as { pointer?: unknown }[] | undefined;
      if (!Array.isArray(errors) || errors.length === 0) violations.push(ruleViolation('errors.2', 'a validation problem without errors'));
      for (const error of errors ?? []) {
        const pointer = String(error.pointer);
        if (!JSON_POINTER.test(pointer) || !REQUEST_PARTS.has(pointer.split('/')[1] ?? '')) {
          violations.push(
            ruleViolation(
              'schema.ProblemError.2',
              `errors[].pointer ${JSON.stringify(error.pointer)} is not a JSON Pointer into { body, query, path, headers }`,
            ),
          );
        }
      }
    }
  }
  return violations;
}
