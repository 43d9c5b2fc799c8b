// Checks that every operation gets from its own entry in the document: a success response that
// conforms, 401 without credentials, 403 for a read-only key on a write, generated invalid input
// refused with a 4xx problem (never a 5xx), generated valid input accepted with a 2xx.
import type { KitContext } from '../context.ts';
import { applyMutation, createGenerator, samples } from '../generate.ts';
import type { Credential, Exchange } from '../http.ts';
import type { RuleId } from '../rules/catalogue.ts';
import { leadRule, sentenceRule, statedAt, statedFor, statedOfBodyPart, statedOfHeader, statedOfParam } from '../rules/stated.ts';
import { bodyLimitBytes } from '../semantics.ts';
import { type OperationModel, successStatuses } from '../spec.ts';
import { ContractViolation, rulesViolated } from '../verify.ts';
import { filterByExistingValues, filtersHold } from './filters.ts';
import { breach, breachAll, ruleViolation } from './rule-support.ts';
import { expectStatedFormats } from './stated-formats.ts';

/** The id to put in an item path: a fresh resource for deletes and state-machine updates. */
async function idFor(ctx: KitContext, op: OperationModel, fresh: boolean): Promise<string | undefined> {
  if (!op.params.some((p) => p.in === 'path')) return undefined;
  return ctx.fixture(ctx.resourceOf(op), fresh);
}

export async function successResponse(
  ctx: KitContext,
  op: OperationModel,
  check: string,
  freshItem: boolean,
  judged: readonly RuleId[] = [],
): Promise<void> {
  const id = await idFor(ctx, op, op.kind === 'delete' || freshItem);
  // An empty list validates no item schema: make sure there is at least one item to check.
  if (op.kind === 'list' && ctx.options.profile === 'stateful') await ctx.fixture(ctx.resourceOf(op));
  const [body] = await ctx.validBodies(op, 1);
  const query = op.kind === 'list' ? { limit: '5' } : undefined;
  const exchange = await ctx.send(op, { id, ...(body === undefined ? {} : { body }), ...(query ? { query } : {}) });
  // Before the schema: a missing required header is a schema failure too, which names no rule.
  const tagged = op.kind === 'read' ? statedFor(op, /with its `ETag`/) : [];
  if (tagged.length > 0 && exchange.status === 200 && !exchange.headers.has('etag'))
    throw new ContractViolation(op.label, check, rulesViolated(tagged, 'the answer has no ETag header'), exchange);
  // A valid key refused breaks how keys are sent; a collection not found, the version in the path;
  // a create that does not succeed, what its description says it does first ("Creates a policy.").
  const rules: RuleId[] =
    exchange.status === 401 ? ['authentication.1', 'security.bearerAuth.1'] : exchange.status === 404 && !id ? ['versioning.1'] : [];
  const does = op.kind === 'create' ? leadRule(op) : undefined;
  if (does && judged.includes(does)) rules.push(does);
  const statuses = successStatuses(op);
  if (statuses.includes(exchange.status)) expectStatedFormats(ctx, op, check, exchange, judged);
  ctx.expect(op, check, exchange, { statuses, rules }, 'a valid request');
  if (op.kind === 'create' && ctx.options.profile === 'stateful') {
    const location = exchange.headers.get('location');
    const read = ctx.resourceOf(op).read;
    if (location && read) {
      const rules = statedOfHeader(op, String(exchange.status), 'location', /(?:)/).filter((rule) => judged.includes(rule));
      const followed = await ctx.send(read, { path: new URL(location, `${ctx.http.baseUrl}/`).pathname });
      ctx.expect(read, check, followed, { statuses: [200], rules }, `GET ${location}, the Location of ${op.operationId}`);
      const createdId = (exchange.json as { id?: unknown }).id;
      const readId = (followed.json as { id?: unknown }).id;
      if (createdId !== readId) {
        const message = `Location ${location} names ${String(readId)}, not the created ${String(createdId)}`;
        throw new ContractViolation(op.label, check, rulesViolated(rules, message));
      }
    }
  }
}

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

/**
 * A well-formed request (valid body, existing id) whose only fault is its credentials. Failed
 * authentication is limited per client address: over that limit the document answers `429
 * rate-limited` with `Retry-After` and the address's RateLimit policy instead of `401`, which the
 * check accepts as such (waiting the window out would cost a minute); a valid key from the same
 * address must still be served meanwhile.
 */
export async function refusedCredentials(
  ctx: KitContext,
  op: OperationModel,
  check: keyof typeof REFUSALS,
): Promise<void | { note: string }> {
  const { auth, status, note, rules } = REFUSALS[check];
  const id = await idFor(ctx, op, false);
  const [body] = await ctx.validBodies(op, 1);
  const exchange = await ctx.send(op, { id, auth, acceptRateLimit: status === 401, ...(body === undefined ? {} : { body }) });
  const scheme = exchange.headers.get('www-authenticate');
  if (check === 'no-credentials-401' && exchange.status === 401 && !/^bearer\b/i.test(scheme ?? ''))
    breach(op.label, check, 'header.WWWAuthenticate.1', `the 401 names the scheme ${String(scheme)}, not Bearer`, [], exchange);
  // A client error that says when to come back refuses the address, which the document does with 429.
  const throttled = exchange.status >= 400 && exchange.status < 500 && exchange.headers.has('retry-after');
  if (status === 401 && throttled && exchange.status !== 401 && exchange.status !== 429)
    breach(op.label, check, 'response.Unauthorized.3', `failed authentication throttled with ${exchange.status}, not 429`, [], exchange);
  // A write the read scope does not allow breaks the operation's own "Needs the `write` scope" too.
  const scope = status === 403 ? sentenceRule(op, /`write` scope/) : [];
  if (status !== 401 || exchange.status !== 429)
    return ctx.expect(op, check, exchange, { statuses: [status], rules: [...rules, ...scope] }, note);
  // The problem type is the response audit's to judge (the catalogue's type for 429).
  const missing = ['retry-after', 'ratelimit-policy', 'ratelimit'].filter((name) => !exchange.headers.has(name));
  if (missing.length > 0)
    breach(op.label, check, 'rate-limits.5', `a 429 for failed authentication lacks ${missing.join(', ')}`, [], exchange);
  ctx.expect(op, check, exchange, { statuses: [429] }, `${note}, while the address is over its failed-authentication limit`);
  const list = op.kind === 'list' ? op : ctx.resourceOf(op).list;
  if (!list) return { note: '429 rate-limited: the address is over its failed-authentication limit' };
  if (Number(/;\s*r=(\d+)/.exec(exchange.headers.get('ratelimit') ?? '')?.[1]) !== 0)
    breach(op.label, check, 'header.RateLimit.2', `the 429 says failures remain: RateLimit ${String(exchange.headers.get('ratelimit'))}`);
  const served = await ctx.send(list, { query: { limit: '1' } });
  const policyName = (answer: Exchange) => /^\s*"([^"]*)"/.exec(answer.headers.get('ratelimit-policy') ?? '')?.[1];
  if (served.status === 200 && policyName(served) === policyName(exchange)) {
    const what = `the 429 for failed authentication names the key's policy ${String(exchange.headers.get('ratelimit-policy'))}`;
    throw new ContractViolation(
      op.label,
      check,
      [ruleViolation('rate-limits.6', what), ruleViolation('header.RateLimitPolicy.2', what)],
      exchange,
    );
  }
  if (served.status !== 200)
    breach(
      op.label,
      check,
      'rate-limits.7',
      `while the address was over its failed-authentication limit, a request with the valid key got ${served.status}`,
      [],
      served,
    );
  return {
    note: `429 rate-limited (the address is over its failed-authentication limit; policy ${String(exchange.headers.get('ratelimit-policy'))}); a valid key was still served`,
  };
}

/** Generated invalid bodies, malformed JSON, an oversized body and a wrong media type: each a 4xx problem. */
export async function invalidBodies(
  ctx: KitContext,
  op: OperationModel,
  check: string,
  cases: number,
  judged: readonly string[] = [],
): Promise<void> {
  const id = await idFor(ctx, op, false);
  const invalid = await ctx.invalidBodies(op, cases);
  if (invalid.length === 0) throw new Error(`${op.label}: the generator produced no invalid body`);
  for (const { mutation, body } of invalid) {
    const exchange = await ctx.send(op, { id, body });
    const what = `invalid body: ${mutation.at} ${mutation.what}`;
    const stated = op.body ? statedOfBodyPart(ctx.model.doc, op.body.pointer, mutation.at, judged) : [];
    if (exchange.status < 400 && stated.length > 0)
      breachAll(op.label, check, stated, `expected 4xx (${what}), got ${exchange.status}`, [], exchange);
    ctx.expect(op, check, exchange, { range: '4xx' }, what);
  }
  const limit = bodyLimitBytes(ctx.model.doc);
  const fixed = [
    async () => {
      const malformed = await ctx.send(op, { id, rawBody: '{"unterminated": ' });
      ctx.expect(op, check, malformed, { statuses: [400] }, 'malformed JSON');
    },
    ...(op.responses.has('413') && limit
      ? [
          async () => {
            const tooLarge = await ctx.send(op, { id, rawBody: JSON.stringify({ description: 'x'.repeat(limit + 1024) }) });
            const rules: RuleId[] = ['response.PayloadTooLarge.1'];
            ctx.expect(op, check, tooLarge, { statuses: [413], rules }, `a body over the documented ${limit / 1024 / 1024} MiB`);
          },
          async () => {
            // Whitespace is the one way to a large body that every schema bound allows: a body under the limit is read.
            const underLimit = await ctx.send(op, { id, rawBody: `{${' '.repeat(limit - 1024)}"kit_unknown_field": 1}` });
            if (underLimit.status === 413)
              breach(op.label, check, 'limits.1', `a body of ${limit - 1000} bytes answered 413`, [], underLimit);
          },
        ]
      : []),
    ...(op.responses.has('415')
      ? [
          async () => {
            const [valid] = await ctx.validBodies(op, 1);
            const wrongType = await ctx.send(op, { id, rawBody: JSON.stringify(valid), contentType: 'text/plain' });
            const rules: RuleId[] = ['response.UnsupportedMediaType.1'];
            ctx.expect(op, check, wrongType, { statuses: [415], rules }, 'Content-Type text/plain');
          },
        ]
      : []),
  ];
  // Repeats across operations that a time budget samples down with the generated cases: with fewer
  // than all of them, each operation starts at another one, so every kind is still sent to some.
  const start = ctx.model.operations.indexOf(op);
  for (let i = 0; i < Math.min(fixed.length, cases); i++) await fixed[(start + i) % fixed.length]!();
}

/** Malformed path ids and invalid or unknown query parameters: each a 4xx problem. */
export async function invalidParameters(ctx: KitContext, op: OperationModel, check: string, cases: number): Promise<void> {
  const generator = createGenerator(ctx.model.doc);
  // A delete that wrongly ignores a bad query parameter deletes its target: never the shared fixture.
  const validId = await idFor(ctx, op, op.kind === 'delete');
  let sent = 0;
  for (const param of op.params.filter((p) => p.in === 'path' || p.in === 'query')) {
    const schema = { $ref: param.pointer };
    const [base] = samples(generator.arbitrary(schema), 1, ctx.options.seed);
    const bad = generator
      .mutations(schema, base)
      .map((mutation) => ({ mutation, value: applyMutation(base, mutation) }))
      .filter(({ value }) => value !== undefined && String(value) !== '')
      .map(({ mutation, value }) => ({ mutation, text: typeof value === 'string' ? value : JSON.stringify(value) }))
      .filter(({ text }) => !parameterIsValid(ctx, param.pointer, text));
    // A repeat that a time budget samples down with the generated cases (--cases, or fewer to fit).
    // What the parameter's own description says of a bad value: a range it must be in, the status a malformed one gets.
    const rules = statedOfParam(op, param.name.toLowerCase(), /\b\d+ to \d+\b|malformed/);
    const expected =
      statedOfParam(op, param.name.toLowerCase(), /malformed .* refused with `400`/).length > 0
        ? { statuses: [400] }
        : { range: '4xx' as const };
    for (const { mutation, text } of bad.slice(0, Math.min(MAX_BAD_VALUES, cases))) {
      const exchange =
        param.in === 'path' ? await ctx.send(op, { id: text }) : await ctx.send(op, { id: validId, query: { [param.name]: text } });
      const what = `${param.in} parameter ${param.name}=${JSON.stringify(text)}: ${mutation.what}`;
      ctx.expect(op, check, exchange, { ...expected, rules }, what);
      sent++;
    }
  }
  const [body] = await ctx.validBodies(op, 1);
  const unknown = await ctx.send(op, { id: validId, query: { contract_kit_unknown: '1' }, ...(body === undefined ? {} : { body }) });
  const refused = statedFor(op, /Unknown query parameters/);
  ctx.expect(op, check, unknown, { range: '4xx', rules: refused }, 'unknown query parameter contract_kit_unknown');
  if (sent === 0 && op.params.some((p) => p.in !== 'header')) throw new Error(`${op.label}: no invalid parameter could be generated`);
}

/** A query or path value as the server sees it: integers and booleans are coerced from text. */
function parameterIsValid(ctx: KitContext, pointer: string, text: string): boolean {
  const candidates: unknown[] = [text];
  if (/^-?\d+(\.\d+)?$/.test(text)) candidates.push(Number(text));
  if (text === 'true' || text === 'false') candidates.push(text === 'true');
  return candidates.some((candidate) => ctx.validator.validate(pointer, candidate).valid);
}

/** Generated valid bodies and query parameters: each a 2xx. */
export async function validInput(ctx: KitContext, op: OperationModel, check: string, freshItem: boolean, cases: number): Promise<void> {
  const statuses = successStatuses(op);
  const bodies = await ctx.validBodies(op, cases);
  for (const body of bodies) {
    const id = await idFor(ctx, op, freshItem);
    const exchange = await ctx.send(op, { id, body });
    // A valid webhook body refused as invalid is a subscription the document says a webhook makes.
    const refused = exchange.status === 400 || exchange.status === 422;
    const subscribing = op.path.startsWith('/v1/webhooks') && refused ? statedAt('/info/description', /^A webhook subscribes/) : [];
    if (subscribing.length > 0)
      breachAll(op.label, check, subscribing, `a valid webhook body was refused with ${exchange.status}`, [JSON.stringify(body)], exchange);
    ctx.expect(op, check, exchange, { statuses }, 'valid generated body');
  }
  for (const query of ctx.validQueries(op, cases)) {
    const id = await idFor(ctx, op, false);
    const exchange = await ctx.send(op, { id, query });
    ctx.expect(op, check, exchange, { statuses }, 'valid generated query');
    if (ctx.options.profile === 'stateful') filtersHold(op, check, query, exchange.json);
  }
  if (ctx.options.profile === 'stateful' && op.kind === 'list') await filterByExistingValues(ctx, op, check, cases);
}

const MAX_BAD_VALUES = 8;
