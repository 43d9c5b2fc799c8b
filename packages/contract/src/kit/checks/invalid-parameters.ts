// `invalid-parameters`: malformed path ids (a percent-encoding that is not UTF-8 among them) and
// invalid or unknown query parameters: each a 4xx problem. An unknown query parameter is also sent
// beside an invalid one: a validation problem then names both, each with a JSON Pointer to the
// parameter, whichever part of the implementation finds each.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import { type Check, found } from '../failure.ts';
import { applyMutation, createGenerator, samples } from '../generate.ts';
import type { Exchange } from '../http.ts';
import { statedFor, statedOfParam } from '../rules/stated.ts';
import type { OperationModel } from '../spec.ts';
import type { Discrepancy } from '../verify.ts';
import { eachOperation, idFor } from './shared/operation.ts';
import { PROBLEM_BASE } from './shared/problem-table.ts';
import { isRequestPointer, queryPointer } from './shared/request-pointers.ts';

const RULES = [
  'pagination.2',
  'listPolicies.4',
  'listFindings.4',
  'listWebhooks.4',
  'param.Limit.1',
  'param.PolicyIdPath.2',
  'param.FindingIdPath.2',
  'param.WebhookIdPath.2',
  'errors.2',
  'schema.ProblemError.2',
] as const;
type Rule = (typeof RULES)[number];

const MAX_BAD_VALUES = 8;
const UNKNOWN = 'contract_kit_unknown';
/** A percent-encoding that decodes to bytes that are not UTF-8 (`%C3` opens a sequence `(` cannot continue). */
const UNDECODABLE = '%C3%28';

export const invalidParametersCheck = defineCheck({
  name: 'invalid-parameters',
  column: 'badparam',
  rules: RULES,
  needs: {},
  exercisesSuccess: false,
  cost: { fixed: 2, perCase: 0.3 },
  instances: (model) =>
    eachOperation(
      model,
      () => true,
      (op) => (ctx, check, cases) => invalidParameters(ctx, op, check, cases),
    ),
});

async function invalidParameters(ctx: KitContext, op: OperationModel, check: Check<Rule>, cases: number): Promise<void> {
  const generator = createGenerator(ctx.model.doc);
  // A delete that wrongly ignores a bad query parameter deletes its target: never the shared fixture.
  const validId = await idFor(ctx, op, op.kind === 'delete');
  let sent = 0;
  let badQuery: { name: string; text: string } | undefined;
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
      check.conform(op, exchange, { ...expected, rules }, what);
      sent++;
      if (param.in === 'query') badQuery ??= { name: param.name, text };
    }
    if (param.in === 'path') {
      // An identifier whose percent-encoding decodes to no text is malformed too, whichever layer finds it.
      const exchange = await ctx.send(op, { path: op.path.replace(/\{[^}]+\}/, UNDECODABLE) });
      const what = `path parameter ${param.name} percent-encoded as ${UNDECODABLE}, which is not UTF-8`;
      check.conform(op, exchange, { ...expected, rules }, what);
    }
  }
  const [body] = await ctx.validBodies(op, 1);
  const withBody = body === undefined ? {} : { body };
  const unknown = await ctx.send(op, { id: validId, query: { [UNKNOWN]: '1' }, ...withBody });
  const refused = statedFor(op, /Unknown query parameters/);
  check.conform(op, unknown, { range: '4xx', rules: refused }, `unknown query parameter ${UNKNOWN}`);
  if (badQuery) {
    const both = await ctx.send(op, { id: validId, query: { [badQuery.name]: badQuery.text, [UNKNOWN]: '1' }, ...withBody });
    const what = `unknown query parameter ${UNKNOWN} beside ${badQuery.name}=${JSON.stringify(badQuery.text)}`;
    check.conform(op, both, { range: '4xx', rules: refused }, what);
    const unnamed = invalidPartsUnnamed(both, [UNKNOWN, badQuery.name], what);
    if (unnamed.length > 0) check.failAll({ at: op, found: unnamed, exchange: both });
  }
  if (sent === 0 && op.params.some((p) => p.in !== 'header')) throw new Error(`${op.label}: no invalid parameter could be generated`);
}

/** A query or path value as the server sees it: integers and booleans are coerced from text. */
function parameterIsValid(ctx: KitContext, pointer: string, text: string): boolean {
  const candidates: unknown[] = [text];
  if (/^-?\d+(\.\d+)?$/.test(text)) candidates.push(Number(text));
  if (text === 'true' || text === 'false') candidates.push(text === 'true');
  return candidates.some((candidate) => ctx.validator.validate(pointer, candidate).valid);
}

/** A validation problem's `errors` against the query parameters sent invalid: each named by its pointer, and no pointer outside the request. */
function invalidPartsUnnamed(exchange: Exchange, names: readonly string[], what: string): Discrepancy[] {
  const problem = exchange.json as { type?: unknown; errors?: { pointer?: unknown }[] } | undefined;
  if (problem?.type !== `${PROBLEM_BASE}validation-error` || !Array.isArray(problem.errors)) return [];
  const pointers = problem.errors.map((error) => error.pointer);
  const outside = pointers.filter((pointer) => typeof pointer !== 'string' || !isRequestPointer(pointer));
  const unnamed = names.map(queryPointer).filter((pointer) => !pointers.includes(pointer));
  return [
    ...(outside.length > 0
      ? found<Rule>({
          rule: 'schema.ProblemError.2',
          observed: `${what}: errors[].pointer ${outside.map((p) => JSON.stringify(p)).join(', ')} is not a JSON Pointer into { body, query, path, headers }`,
        })
      : []),
    ...(unnamed.length > 0
      ? found<Rule>({
          rule: 'errors.2',
          observed: `${what}: errors names no ${unnamed.join(' or ')} (its pointers: ${JSON.stringify(pointers)})`,
        })
      : []),
  ];
}
