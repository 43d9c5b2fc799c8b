// The cross-cutting rules on every class of answer, errors included: one request per status the
// document lists (a create, a delete, a conditional read, a stale If-Match, a reused
// Idempotency-Key, an invalid, oversized or mistyped body, no key, a read-only key, an unknown id),
// each from a browser origin: every answer allows the origin and
// exposes the headers the document lists, every authenticated one carries the RateLimit headers,
// every error is a problem document.
import { statedStatuses } from '../axes/answers.ts';
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import type { Exchange, RequestSpec } from '../http.ts';
import { crossCuttingBreaches, DEFAULT_CORS_ORIGIN } from './shared/cross-cutting.ts';
import { bodyWith, crudNamed } from './shared/rule-support.ts';

const RULES = ['browser-clients-cors.1', 'browser-clients-cors.3', 'rate-limits.2', 'errors.1'] as const;
type Rule = (typeof RULES)[number];

/** Before the response audit, which judges its answers too. */
export const errorAnswersCheck = defineCheck({
  name: 'error-answers',
  column: 'errs',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 12, perCase: 0 },
  instances: (model, options) => {
    const policies = model.resources.find((r) => r.name === 'policies');
    if (!policies?.list || !policies.create) return [];
    return [{ subjects: [policies.list.label], run: (ctx, check) => errorAnswers(ctx, check, options.corsOrigin) }];
  },
});

const UNKNOWN_ID = '00000000000000000000000000';
const OVER_ONE_MIB = 1024 * 1024 + 1;

/** `error-answers`: every stated status below 429 provoked from a browser origin, each answer judged on the cross-cutting rules. */
async function errorAnswers(ctx: KitContext, check: Check<Rule>, corsOrigin: string | undefined): Promise<'passed' | { note: string }> {
  const policies = crudNamed(ctx, 'policies');
  const origin = corsOrigin ?? DEFAULT_CORS_ORIGIN;
  const headers = { Origin: origin };
  // The API key, unless another is asked for: the read key's quota may be used up by the 429 probe.
  const send = (op: typeof policies.list, spec: Omit<RequestSpec, 'method' | 'path'> & { id?: string; path?: string }) =>
    ctx.send(op, { auth: 'api', ...spec, headers: { ...headers, ...spec.headers }, acceptRateLimit: true });
  const first = await send(policies.list, { query: { limit: '1' } });
  // Without --cors-origin the default origin is only tried: a target that does not allow it is judged on the other rules.
  const allowsOrigin = corsOrigin !== undefined || first.headers.get('access-control-allow-origin') !== null;
  const answers: Exchange[] = [first];
  const body = await bodyWith(ctx, policies.create);
  const created = await send(policies.create, { body });
  answers.push(created);
  const id = (created.json as { id?: string } | undefined)?.id;
  const etag = created.headers.get('etag') ?? '"kit"';
  if (id) {
    answers.push(await send(policies.read, { id, headers: { 'If-None-Match': etag } }));
    answers.push(await send(policies.update, { id, body, headers: { 'If-Match': '"kit-stale-etag"' } }));
  }
  const reuse = `kit-reuse-${Date.now()}`;
  answers.push(await send(policies.create, { body, headers: { 'Idempotency-Key': reuse } }));
  answers.push(
    await send(policies.create, { body: { ...body, name: `${String(body.name)}-other` }, headers: { 'Idempotency-Key': reuse } }),
  );
  answers.push(await send(policies.create, { body: {} }));
  answers.push(await send(policies.create, { rawBody: JSON.stringify({ name: 'x'.repeat(OVER_ONE_MIB) }) }));
  answers.push(await send(policies.create, { rawBody: JSON.stringify(body), contentType: 'text/plain' }));
  answers.push(await send(policies.list, { auth: 'none' }));
  if (ctx.http.hasReadKey) answers.push(await send(policies.create, { body, auth: 'read' }));
  answers.push(await send(policies.read, { id: `${policies.name.slice(0, 3)}_${UNKNOWN_ID}` }));
  if (id) answers.push(await send(policies.delete, { id }));

  const violations = answers.flatMap((exchange) =>
    crossCuttingBreaches(check, exchange, allowsOrigin ? origin : undefined).map((v) => ({ v, exchange })),
  );
  if (violations.length > 0) check.failAll({ at: policies.list, found: violations.map(({ v }) => v), exchange: violations[0]!.exchange });
  const seen = new Set(answers.map((exchange) => exchange.status));
  // 429 is provoked by the quota probe and judged after it (rate-limit-clock); 5xx by no request.
  const unprovoked = statedStatuses(ctx.model).filter((status) => status < 429 && !seen.has(status));
  return unprovoked.length > 0 ? { note: `statuses not provoked here: ${unprovoked.join(', ')}` } : 'passed';
}
