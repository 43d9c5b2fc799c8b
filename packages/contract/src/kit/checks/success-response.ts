// `success-response`: a valid request to each operation answers a documented success that conforms
// to its schema, with the formats the document states of its values and, after a create, a
// Location that reads the created resource.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check, Judged } from '../failure.ts';
import type { RuleId } from '../rules/catalogue.ts';
import { leadRule, statedFor, statedOfHeader } from '../rules/stated.ts';
import { type OperationModel, successStatuses } from '../spec.ts';
import { eachOperation, freshItem, idFor } from './shared/operation.ts';
import { expectStatedFormats } from './shared/stated-formats.ts';

/** What it judges (a stated format a value breaks names its sentence when it is one of these). */
const RULES = [
  'authentication.1',
  'pagination.1',
  'limits.2',
  'limits.3',
  'webhooks.1',
  'versioning.1',
  'versioning.14',
  'createPolicy.1',
  'createPolicy.3',
  'getPolicy.1',
  'createFinding.1',
  'createFinding.3',
  'getFinding.1',
  'createWebhook.1',
  'createWebhook.4',
  'getWebhook.1',
  'security.bearerAuth.1',
  'schema.DeviceId.1',
  'schema.FindingId.1',
  'schema.PolicyId.1',
  'schema.Timestamp.1',
  'schema.WebhookId.1',
  'header.PolicyLocation.1',
  'header.FindingLocation.1',
  'header.WebhookLocation.1',
] as const;
type Rule = (typeof RULES)[number];

export const successResponseCheck = defineCheck({
  name: 'success-response',
  column: 'ok',
  rules: RULES,
  needs: {},
  exercisesSuccess: true,
  cost: { fixed: 2, perCase: 0 },
  instances: (model, options) =>
    eachOperation(
      model,
      () => true,
      (op) => (ctx, check) => successResponse(ctx, op, check, freshItem(model, op, options.profile === 'stateful')),
    ),
});

async function successResponse(ctx: KitContext, op: OperationModel, check: Check<Rule>, freshItem: boolean): Promise<void> {
  const judged: readonly RuleId[] = RULES;
  const id = await idFor(ctx, op, op.kind === 'delete' || freshItem);
  // An empty list validates no item schema: make sure there is at least one item to check.
  if (op.kind === 'list' && ctx.options.profile === 'stateful') await ctx.fixture(ctx.resourceOf(op));
  const [body] = await ctx.validBodies(op, 1);
  const query = op.kind === 'list' ? { limit: '5' } : undefined;
  const exchange = await ctx.send(op, { id, ...(body === undefined ? {} : { body }), ...(query ? { query } : {}) });
  // Before the schema: a missing required header is a schema failure too, which names no rule.
  const tagged = op.kind === 'read' ? statedFor(op, /with its `ETag`/) : [];
  if (tagged.length > 0 && exchange.status === 200 && !exchange.headers.has('etag'))
    check.fail({ at: op, rule: tagged, observed: 'the answer has no ETag header', exchange });
  // A valid key refused breaks how keys are sent; a collection not found, the version in the path;
  // a create that does not succeed, what its description says it does first ("Creates a policy.").
  const rules: Judged<Rule>[] =
    exchange.status === 401 ? ['authentication.1', 'security.bearerAuth.1'] : exchange.status === 404 && !id ? ['versioning.1'] : [];
  const does = op.kind === 'create' ? leadRule(op) : undefined;
  if (does && judged.includes(does)) rules.push(does);
  const statuses = successStatuses(op);
  if (statuses.includes(exchange.status)) expectStatedFormats(ctx, op, check, exchange, RULES);
  check.conform(op, exchange, { statuses, rules }, 'a valid request');
  if (op.kind === 'create' && ctx.options.profile === 'stateful') {
    const location = exchange.headers.get('location');
    const read = ctx.resourceOf(op).read;
    if (location && read) {
      const rules = statedOfHeader(op, String(exchange.status), 'location', /(?:)/).filter((rule) => judged.includes(rule));
      const followed = await ctx.send(read, { path: new URL(location, `${ctx.http.baseUrl}/`).pathname });
      check.conform(read, followed, { statuses: [200], rules }, `GET ${location}, the Location of ${op.operationId}`);
      const createdId = (exchange.json as { id?: unknown }).id;
      const readId = (followed.json as { id?: unknown }).id;
      if (createdId !== readId) {
        const message = `Location ${location} names ${String(readId)}, not the created ${String(createdId)}`;
        check.fail({ at: op, rule: rules, observed: message });
      }
    }
  }
}
