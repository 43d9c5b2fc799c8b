// Checks that every operation gets from its own entry in the document: a success response that
// conforms, 401 without credentials, 403 for a read-only key on a write, generated invalid input
// refused with a 4xx problem (never a 5xx), generated valid input accepted with a 2xx.
import type { KitContext } from '../context.ts';
import { applyMutation, createGenerator, samples } from '../generate.ts';
import type { Credential } from '../http.ts';
import { bodyLimitBytes, transitionsOf } from '../semantics.ts';
import type { OperationModel } from '../spec.ts';
import { successStatuses } from '../spec.ts';
import { ContractViolation } from '../verify.ts';
import { breach } from './rule-support.ts';
import { isCrud } from './stateful.ts';
import { diversify } from './transitions.ts';

/** The id to put in an item path: a fresh resource for deletes and state-machine updates. */
async function idFor(ctx: KitContext, op: OperationModel, fresh: boolean): Promise<string | undefined> {
  if (!op.params.some((p) => p.in === 'path')) return undefined;
  return ctx.fixture(ctx.resourceOf(op), fresh);
}

export async function successResponse(ctx: KitContext, op: OperationModel, check: string, freshItem: boolean): Promise<void> {
  const id = await idFor(ctx, op, op.kind === 'delete' || freshItem);
  // An empty list validates no item schema: make sure there is at least one item to check.
  if (op.kind === 'list' && ctx.options.profile === 'stateful') await ctx.fixture(ctx.resourceOf(op));
  const [body] = await ctx.validBodies(op, 1);
  const query = op.kind === 'list' ? { limit: '5' } : undefined;
  const exchange = await ctx.send(op, { id, ...(body === undefined ? {} : { body }), ...(query ? { query } : {}) });
  ctx.expect(op, check, exchange, { statuses: successStatuses(op) });
  if (op.kind === 'create' && ctx.options.profile === 'stateful') {
    const location = exchange.headers.get('location');
    const read = ctx.resourceOf(op).read;
    if (location && read) {
      const followed = await ctx.send(read, { path: new URL(location, `${ctx.http.baseUrl}/`).pathname });
      ctx.expect(read, `${check}: Location of ${op.operationId}`, followed, { statuses: [200] }, `GET ${location}`);
      const createdId = (exchange.json as { id?: unknown }).id;
      const readId = (followed.json as { id?: unknown }).id;
      if (createdId !== readId) {
        throw new ContractViolation(op.label, check, [
          {
            aspect: 'expectation',
            message: `Location ${location} names ${String(readId)}, not the created ${String(createdId)}`,
            details: [],
          },
        ]);
      }
    }
  }
}

/** How a request is made without acceptable credentials, and what the contract answers. */
export const REFUSALS = {
  'no-credentials-401': { auth: 'none', status: 401, note: 'no Authorization header' },
  'unknown-key-401': {
    auth: { token: 'contract-kit-unknown-key-0000', role: '<unknown-key>' },
    status: 401,
    note: 'a key the service does not know',
  },
  'read-only-key-403': { auth: 'read', status: 403, note: 'a key with only the read scope' },
} as const satisfies Record<string, { auth: Credential; status: number; note: string }>;

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
  const { auth, status, note } = REFUSALS[check];
  const id = await idFor(ctx, op, false);
  const [body] = await ctx.validBodies(op, 1);
  const exchange = await ctx.send(op, { id, auth, acceptRateLimit: status === 401, ...(body === undefined ? {} : { body }) });
  if (status !== 401 || exchange.status !== 429) return ctx.expect(op, check, exchange, { statuses: [status] }, note);
  // The problem type is the response audit's to judge (the catalogue's type for 429).
  const missing = ['retry-after', 'ratelimit-policy', 'ratelimit'].filter((name) => !exchange.headers.has(name));
  if (missing.length > 0)
    breach(op.label, check, 'rate-limits.5', `a 429 for failed authentication lacks ${missing.join(', ')}`, [], exchange);
  ctx.expect(op, check, exchange, { statuses: [429] }, `${note}, while the address is over its failed-authentication limit`);
  const list = op.kind === 'list' ? op : ctx.resourceOf(op).list;
  if (!list) return { note: '429 rate-limited: the address is over its failed-authentication limit' };
  const served = await ctx.send(list, { query: { limit: '1' } });
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
export async function invalidBodies(ctx: KitContext, op: OperationModel, check: string, cases: number): Promise<void> {
  const id = await idFor(ctx, op, false);
  const invalid = await ctx.invalidBodies(op, cases);
  if (invalid.length === 0) throw new Error(`${op.label}: the generator produced no invalid body`);
  for (const { mutation, body } of invalid) {
    const exchange = await ctx.send(op, { id, body });
    ctx.expect(op, check, exchange, { range: '4xx' }, `invalid body: ${mutation.at} ${mutation.what}`);
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
            ctx.expect(op, check, tooLarge, { statuses: [413] }, `a body over the documented ${limit / 1024 / 1024} MiB`);
          },
        ]
      : []),
    ...(op.responses.has('415')
      ? [
          async () => {
            const [valid] = await ctx.validBodies(op, 1);
            const wrongType = await ctx.send(op, { id, rawBody: JSON.stringify(valid), contentType: 'text/plain' });
            ctx.expect(op, check, wrongType, { statuses: [415] }, 'Content-Type text/plain');
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
    for (const { mutation, text } of bad.slice(0, Math.min(MAX_BAD_VALUES, cases))) {
      const exchange =
        param.in === 'path' ? await ctx.send(op, { id: text }) : await ctx.send(op, { id: validId, query: { [param.name]: text } });
      ctx.expect(op, check, exchange, { range: '4xx' }, `${param.in} parameter ${param.name}=${JSON.stringify(text)}: ${mutation.what}`);
      sent++;
    }
  }
  const [body] = await ctx.validBodies(op, 1);
  const unknown = await ctx.send(op, { id: validId, query: { contract_kit_unknown: '1' }, ...(body === undefined ? {} : { body }) });
  ctx.expect(op, check, unknown, { range: '4xx' }, 'unknown query parameter contract_kit_unknown');
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

/**
 * Generated filter values rarely match anything, and a target where every item looks alike hides a
 * filter it ignores. So the kit first makes the items differ (states, severities, ...), then
 * filters by each value present on the first page: only matches come back, and no match is left out.
 */
async function filterByExistingValues(ctx: KitContext, op: OperationModel, check: string, cases: number): Promise<void> {
  const resource = ctx.resourceOf(op);
  if (isCrud(resource)) await diversify(ctx, resource, transitionsOf(ctx.model, resource.update), check, cases);
  const all = await ctx.send(op, { query: { limit: '100' } });
  ctx.expect(op, check, all, { statuses: [200] }, 'the first page, to pick filter values from');
  const items = (all.json as { data: Record<string, unknown>[] }).data;
  for (const param of op.params.filter((p) => p.in === 'query')) {
    const values = [
      ...new Set(
        items
          .map((item) => item[param.name])
          .filter((value) => ['string', 'boolean', 'number'].includes(typeof value))
          .map(String),
      ),
    ];
    for (const value of values.slice(0, Math.min(MAX_FILTER_VALUES, cases))) {
      const query = { [param.name]: value };
      const filtered = await ctx.send(op, { query: { ...query, limit: '100' } });
      ctx.expect(op, check, filtered, { statuses: [200] }, `filter ${param.name} by an existing value`);
      filtersHold(op, check, query, filtered.json);
      const found = new Set((filtered.json as { data: { id?: unknown }[] }).data.map((item) => item.id));
      const missed = items.find((item) => String(item[param.name]) === value && !found.has(item.id));
      if (missed && found.size < 100) {
        throw new ContractViolation(op.label, check, [
          {
            aspect: 'expectation',
            message: `filter ${param.name}=${value} left out ${String(missed.id)}, which has that value`,
            details: [],
          },
        ]);
      }
    }
  }
}

const MAX_FILTER_VALUES = 6;
const MAX_BAD_VALUES = 8;

/** A query parameter named like an item property is a filter: every item returned must match it. */
function filtersHold(op: OperationModel, check: string, query: Record<string, string>, json: unknown): void {
  const items = (json as { data?: Record<string, unknown>[] } | undefined)?.data;
  if (!Array.isArray(items)) return;
  for (const item of items) {
    for (const [name, value] of Object.entries(query)) {
      if (!(name in item) || String(item[name]) === value) continue;
      throw new ContractViolation(op.label, check, [
        {
          aspect: 'expectation',
          message: `filter ${name}=${value} returned an item with ${name}=${JSON.stringify(item[name])}`,
          details: [JSON.stringify(item).slice(0, 300)],
        },
      ]);
    }
  }
}
