// CORS as the document's *Browser clients* section states it: a preflight from an allowed origin is
// answered without an API key and without spending quota, allows the listed request headers, is
// not credentialed, and actual answers expose the listed response headers.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { DEFAULT_CORS_ORIGIN, EXPOSED_HEADERS } from './shared/cross-cutting.ts';
import { withResources } from './shared/documented.ts';
import { crudNamed } from './shared/rule-support.ts';

const RULES = ['browser-clients-cors.1', 'browser-clients-cors.2', 'browser-clients-cors.3', 'browser-clients-cors.4'] as const;
type Rule = (typeof RULES)[number];

export const corsCheck = defineCheck({
  name: 'cors',
  column: 'cors',
  rules: RULES,
  needs: {},
  exercisesSuccess: false,
  cost: { fixed: 0, perCase: 0 },
  instances: (model, options) =>
    withResources(model, (found) => ({ subjects: [found.policies.list.label], run: (ctx, check) => cors(ctx, check, options.corsOrigin) })),
});

const REQUEST_HEADERS = ['authorization', 'content-type', 'if-match', 'if-none-match', 'idempotency-key'];
/** Fetch's CORS-safelisted methods; a JSON POST with a key still needs a preflight, so POST comes next. */
const SIMPLE = ['GET', 'HEAD', 'POST'];

const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);

async function cors(
  ctx: KitContext,
  check: Check<Rule>,
  origin: string | undefined,
): Promise<'passed' | { skipped: string } | { note: string }> {
  const policies = crudNamed(ctx, 'policies');
  const label = policies.list.label;
  const used = origin ?? DEFAULT_CORS_ORIGIN;
  // The preflight asks for a method the path has (the document says nothing of the others): one
  // that is never simple if the path has one, else POST.
  const pathMethods = ctx.model.operations.filter((op) => op.path === policies.list.path).map((op) => op.method.toUpperCase());
  const asked = pathMethods.find((method) => !SIMPLE.includes(method)) ?? (pathMethods.includes('POST') ? 'POST' : pathMethods[0]!);
  const preflight = () =>
    ctx.http.send({
      method: 'OPTIONS',
      path: policies.list.path,
      auth: 'none',
      headers: { Origin: used, 'Access-Control-Request-Method': asked, 'Access-Control-Request-Headers': REQUEST_HEADERS.join(',') },
    });
  const first = await preflight();
  const allowed = first.headers.get('access-control-allow-origin');
  if (allowed !== used && allowed !== '*') {
    if (!origin) return { skipped: `the target does not allow the origin ${used} (pass --cors-origin with one it allows)` };
    check.fail({
      at: label,
      rule: 'browser-clients-cors.1',
      observed: `a preflight from the allowed origin ${used} got Access-Control-Allow-Origin: ${String(allowed)}`,
      exchange: first,
    });
  }
  if (first.status === 401 || first.status >= 300)
    check.fail({
      at: label,
      rule: 'browser-clients-cors.2',
      observed: `a preflight without an API key answered ${first.status}`,
      exchange: first,
    });
  const headers = list(first.headers.get('access-control-allow-headers'));
  const missing = REQUEST_HEADERS.filter((h) => !headers.includes(h) && !(headers.includes('*') && h !== 'authorization'));
  if (missing.length > 0)
    check.fail({
      at: label,
      rule: 'browser-clients-cors.3',
      observed: `the preflight does not allow the request headers ${missing.join(', ')}`,
      exchange: first,
    });
  const methods = list(first.headers.get('access-control-allow-methods'));
  if (!methods.includes(asked.toLowerCase()) && !methods.includes('*'))
    check.fail({
      at: label,
      rule: 'browser-clients-cors.1',
      observed: `the preflight for ${asked} allows only ${methods.join(', ') || 'no methods'}`,
      exchange: first,
    });
  if (first.headers.get('access-control-allow-credentials') === 'true')
    check.fail({ at: label, rule: 'browser-clients-cors.4', observed: 'the preflight allows credentialed requests', exchange: first });

  const actual = await ctx.send(policies.list, { query: { limit: '1' }, headers: { Origin: used } });
  check.conform(policies.list, actual, { statuses: [200] }, `a GET from origin ${used}`);
  const exposed = list(actual.headers.get('access-control-expose-headers'));
  const hidden = EXPOSED_HEADERS.filter((h) => !exposed.includes(h) && !exposed.includes('*'));
  if (actual.headers.get('access-control-allow-origin') === null)
    check.fail({
      at: label,
      rule: 'browser-clients-cors.1',
      observed: `a GET from the allowed origin ${used} has no Access-Control-Allow-Origin`,
      exchange: actual,
    });
  if (hidden.length > 0)
    check.fail({
      at: label,
      rule: 'browser-clients-cors.3',
      observed: `the answer does not expose ${hidden.join(', ')} to browsers`,
      exchange: actual,
    });

  // A preflight carries no key, so it cannot spend a key's quota: answering it before
  // authentication (above) is what "costs no quota" asks.
  return 'passed';
}
