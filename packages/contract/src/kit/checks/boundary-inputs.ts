// A body schema's boundaries sent one at a time over a valid body: strings at their length limit
// made of astral characters (accepted and stored as sent), one character over (refused), a URL
// padded to its limit and one over, arrays at their item limits and one beyond, a repeated item
// where items must be unique, a
// timestamp valid in RFC 3339 but with an offset instead of the profile's `Z`, an enum member in
// another case, unknown members whose pointers need `~0` and `~1`; and the body's media type in
// the spellings HTTP treats as equal (accepted), another type (415) and an empty body (400).
import { bodySchemas, boundaryCells, DATE_TIME, type FieldCell, type MediaCell, sendersOf } from '../axes/boundaries.ts';
import { type ParameterCell, parameterCells } from '../axes/parameters.ts';
import { defineCheck, type Instance } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import type { Exchange } from '../http.ts';
import { canonical } from '../model/state.ts';
import type { RuleId } from '../rules/catalogue.ts';
import type { OperationModel } from '../spec.ts';
import { PROBLEM_BASE } from './shared/problem-table.ts';
import type { Json } from './shared/rule-support.ts';

const RULES = [
  'limits.2',
  'limits.3',
  'schema.Timestamp.1',
  'errors.2',
  'errors.5',
  'errors.6',
  'errors.18',
  'schema.ProblemError.2',
] as const;
type Rule = (typeof RULES)[number];

export const boundaryInputsCheck = defineCheck({
  name: 'boundary-inputs',
  column: 'bounds',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 60, perCase: 0 },
  instances: (model) => {
    const { fields, media } = boundaryCells(model);
    const schemas = bodySchemas(model.doc, model);
    const senders = sendersOf(model);
    const parameters = parameterCells(model);
    const queried = [...new Set(parameters.map((cell) => cell.op))].map(
      (op): Instance<Rule> => ({
        subjects: [op.label],
        run: (ctx, check) =>
          parameterInputs(
            ctx,
            op,
            parameters.filter((cell) => cell.op === op),
            check,
          ),
      }),
    );
    const bodies = [...schemas].map(([op, body]): Instance<Rule> => {
      const mine =
        senders.get(body.name) === op
          ? fields.filter((cell) => cell.schemaName === body.name && !(cell.inside && cell.axis.endsWith(' enum')))
          : [];
      return {
        subjects: [op.label],
        run: (ctx, check) =>
          boundaryInputs(
            ctx,
            op,
            mine,
            media.filter((cell) => cell.op === op),
            check,
          ),
      };
    });
    return [...bodies, ...queried];
  },
});

const POINTER_RULES = ['errors.2', 'schema.ProblemError.2'] as const satisfies readonly RuleId[];

/** A fresh body for the operation, and for an update a fresh resource to send it to. */
async function target(ctx: KitContext, op: OperationModel, check: Check<Rule>): Promise<{ body: Json; id?: string }> {
  const resource = ctx.resourceOf(op);
  // A webhook saved here only carries a boundary value: disabled, it adds no deliveries that would
  // slow the event checks' own on a service that paces a webhook's failures.
  const quiet = async (of: OperationModel) => {
    const [generated] = (await ctx.validBodies(of, 1)) as Json[];
    return resource.name === 'webhooks' ? { ...generated!, enabled: false } : generated!;
  };
  const body = await quiet(op);
  if (op.kind !== 'update') return { body };
  const { id } = await ctx.create(resource, check, resource.create ? await quiet(resource.create) : undefined);
  return { body, id };
}

/** Equal as JSON whatever the members' order, and an array's items in any order, since a list of distinct items may come back in the service's own order. */
function sameValue(stored: unknown, sent: unknown): boolean {
  const items = (v: unknown) => (Array.isArray(v) ? v.map(canonical).sort().join(',') : canonical(v));
  return items(stored) === items(sent);
}

const problemOf = (exchange: Exchange) => exchange.json as { type?: string; errors?: { pointer?: string }[] } | undefined;

/** `boundary-inputs` for one operation: its body schema's field cells (when this operation sends them) and its media cells. */
async function boundaryInputs(
  ctx: KitContext,
  op: OperationModel,
  fields: readonly FieldCell[],
  media: readonly MediaCell[],
  check: Check<Rule>,
): Promise<'passed'> {
  for (const cell of fields) {
    const { body, id } = await target(ctx, op, check);
    // The other timestamps are set to an instant inside the profile, so no rule between them (last
    // not before first) decides the answer: only the cell's value does.
    const instants = cell.axis.endsWith(DATE_TIME)
      ? fields.filter((other) => other.inside && other.axis.endsWith(DATE_TIME) && other.field !== cell.field)
      : [];
    const value = cell.valueFor ? cell.valueFor(body[cell.field]) : cell.value;
    const sent = { ...body, ...Object.fromEntries(instants.map((other) => [other.field, other.value])), [cell.field]: value };
    const exchange = await ctx.send(op, { body: sent, ...(id ? { id } : {}) });
    const what = `${op.label} with ${cell.field}: ${cell.cell}`;
    if (cell.inside) {
      check.conform(op, exchange, { range: '2xx', rules: ['limits.2'] }, what);
      const stored = (exchange.json as Json | undefined)?.[cell.field];
      if (stored !== undefined && !sameValue(stored, value))
        check.fail({
          at: op,
          rule: 'limits.2',
          observed: `${what} was accepted but answered ${JSON.stringify(stored).slice(0, 80)}…, not the value sent`,
          exchange,
        });
      continue;
    }
    const rules: Rule[] = cell.axis.endsWith(DATE_TIME) ? ['limits.3', 'schema.Timestamp.1', 'errors.5'] : ['errors.5'];
    check.conform(op, exchange, { statuses: [400], rules }, what);
    const problem = problemOf(exchange);
    if (problem?.type !== `${PROBLEM_BASE}validation-error`)
      check.fail({
        at: op,
        rule: rules,
        observed: `${what} answered 400 with type ${String(problem?.type)}, not validation-error`,
        exchange,
      });
    const { pointers } = cell;
    if (!problem?.errors?.some((error) => error.pointer !== undefined && pointers.includes(error.pointer)))
      check.fail({
        at: op,
        rule: POINTER_RULES,
        observed: `${what}: no entry of errors points at ${pointers.join(' or ')}`,
        details: [`pointers: ${(problem?.errors ?? []).map((error) => JSON.stringify(error.pointer)).join(', ') || 'none'}`],
        exchange,
      });
  }
  for (const cell of media) {
    const { body, id } = await target(ctx, op, check);
    const exchange = await ctx.send(op, {
      rawBody: cell.empty ? '' : JSON.stringify(body),
      contentType: cell.contentType,
      ...(id ? { id } : {}),
    });
    const what = `${op.label} sent as ${cell.cell}`;
    if (cell.expected === '2xx') check.conform(op, exchange, { range: '2xx', rules: ['errors.18'] }, what);
    else if (cell.expected === 415) check.conform(op, exchange, { statuses: [415], rules: ['errors.18'] }, what);
    else {
      check.conform(op, exchange, { statuses: [400], rules: ['errors.6'] }, what);
      const type = problemOf(exchange)?.type;
      if (type !== `${PROBLEM_BASE}malformed-json` && type !== `${PROBLEM_BASE}validation-error`)
        check.fail({ at: op, rule: 'errors.6', observed: `${what} answered 400 with type ${String(type)}`, exchange });
    }
  }
  return 'passed';
}

/** `boundary-inputs` for a list: each query parameter's boundary values, sent one at a time; accepted inside, refused outside naming the parameter. */
async function parameterInputs(
  ctx: KitContext,
  op: OperationModel,
  cells: readonly ParameterCell[],
  check: Check<Rule>,
): Promise<'passed'> {
  for (const cell of cells) {
    const exchange = await ctx.send(op, { query: { [cell.name]: cell.value } });
    const what = `${op.label} with ?${cell.name}=${cell.value}: ${cell.cell}`;
    if (cell.inside) {
      check.conform(op, exchange, { range: '2xx', rules: ['limits.2'] }, what);
      continue;
    }
    check.conform(op, exchange, { statuses: [400], rules: ['errors.5'] }, what);
    const pointer = `/query/${cell.name}`;
    const problem = problemOf(exchange);
    if (exchange.status === 400 && !problem?.errors?.some((error) => error.pointer === pointer))
      check.fail({
        at: op,
        rule: POINTER_RULES,
        observed: `${what}: no entry of errors points at ${pointer}`,
        details: [`pointers: ${(problem?.errors ?? []).map((error) => JSON.stringify(error.pointer)).join(', ') || 'none'}`],
        exchange,
      });
  }
  return 'passed';
}
