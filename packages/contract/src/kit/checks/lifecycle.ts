// `lifecycle`: update with the current ETag (a new ETag, `version` up by exactly one), a stale
// If-Match (412, nothing changes), If-None-Match (304 / 200), then delete with If-Match.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { schemaRule, sentenceRule, statedFor, statedOfHeader, statedOfParam, statedOfResponse } from '../rules/stated.ts';
import { successStatuses } from '../spec.ts';
import { type Crud, cruds, staleMatchRules } from './shared/stateful.ts';

const RULES = [
  'idempotency-and-concurrency.2',
  'idempotency-and-concurrency.3',
  'idempotency-and-concurrency.5',
  'versioning.14',
  'getPolicy.2',
  'updatePolicy.2',
  'updatePolicy.3',
  'deletePolicy.3',
  'getFinding.2',
  'updateFinding.5',
  'updateFinding.11',
  'updateFinding.12',
  'deleteFinding.3',
  'getWebhook.2',
  'updateWebhook.3',
  'updateWebhook.4',
  'deleteWebhook.3',
  'schema.Policy.3',
  'param.IfNoneMatch.1',
  'param.IfMatch.1',
  'header.ETag.1',
  'header.ETag.2',
  'response.NotModified.1',
  'response.PreconditionFailed.1',
] as const;
type Rule = (typeof RULES)[number];

export const lifecycleCheck = defineCheck({
  name: 'lifecycle',
  column: 'crud',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 5, perCase: 0 },
  instances: (model) =>
    cruds(model).map((resource) => ({
      subjects: [resource.create, resource.read, resource.list, resource.update, resource.delete].map((op) => op.label),
      run: (ctx, check) => lifecycle(ctx, resource, check),
    })),
});

async function lifecycle(ctx: KitContext, resource: Crud, check: Check<Rule>): Promise<void> {
  const { id, exchange: created } = await ctx.create(resource, check);
  const versionOf = (json: unknown) => (json as { version?: unknown }).version;
  const firstVersion = versionOf(created.json);
  const sentence = {
    ifMatch: sentenceRule(resource.update, /If-Match/),
    stale: sentenceRule(resource.update, /`412`/),
    newTag: sentenceRule(resource.update, /new `ETag`/),
    version: schemaRule('/properties/version/description', /increases by one/),
    deleteIfMatch: sentenceRule(resource.delete, /If-Match/),
  };

  const [update] = await ctx.validBodies(resource.update, 1);
  const oldTag = created.headers.get('etag') ?? '';
  const updated = await ctx.send(resource.update, { id, body: update, headers: { 'If-Match': oldTag } });
  const refusedMatch = updated.status === 412 ? statedOfResponse(resource.update, '412', /If-Match/) : [];
  const current = 'update with the current ETag in If-Match';
  check.conform(
    resource.update,
    updated,
    { statuses: successStatuses(resource.update), rules: [...refusedMatch, ...sentence.ifMatch] },
    current,
  );
  const newTag = updated.headers.get('etag') ?? '';
  if (newTag === oldTag) {
    const representation = statedOfHeader(resource.update, '200', 'etag', /returned representation/);
    check.fail({
      at: resource.update,
      rule: [...representation, ...sentence.newTag],
      observed: `the ETag did not change on update (${newTag})`,
    });
  }
  if (typeof firstVersion === 'number' && versionOf(updated.json) !== firstVersion + 1) {
    check.fail({
      at: resource.update,
      rule: sentence.version,
      observed: `version went from ${firstVersion} to ${String(versionOf(updated.json))} on one update; it must go up by exactly one`,
    });
  }

  const stale = await ctx.send(resource.update, { id, body: update, headers: { 'If-Match': oldTag } });
  const staleUpdate = staleMatchRules(resource.update, resource);
  check.conform(resource.update, stale, { statuses: [412], rules: [...staleUpdate, ...sentence.stale] }, 'update with a stale If-Match');
  const afterStale = await ctx.send(resource.read, { id });
  check.conform(resource.read, afterStale, { statuses: [200] }, 'read after a refused update');
  if (afterStale.headers.get('etag') !== newTag || versionOf(afterStale.json) !== versionOf(updated.json)) {
    check.fail({
      at: resource.read,
      observed: `a refused update (412) changed the resource: ETag ${String(afterStale.headers.get('etag'))}, version ${String(versionOf(afterStale.json))}`,
    });
  }

  if (resource.read.responses.has('304')) {
    const notModified = await ctx.send(resource.read, { id, headers: { 'If-None-Match': newTag } });
    const unchanged = [
      ...statedFor(resource.read, /If-None-Match/),
      ...statedOfParam(resource.read, 'if-none-match', /304/),
      ...statedOfHeader(resource.read, '200', 'etag', /304/),
    ];
    check.conform(resource.read, notModified, { statuses: [304], rules: unchanged }, 'If-None-Match with the current ETag');
    const modified = await ctx.send(resource.read, { id, headers: { 'If-None-Match': oldTag } });
    const changed = modified.status === 304 ? statedOfResponse(resource.read, '304', /If-None-Match/) : [];
    check.conform(resource.read, modified, { statuses: [200], rules: changed }, 'If-None-Match with an old ETag');
  }

  if (resource.delete.responses.has('412')) {
    const staleDelete = await ctx.send(resource.delete, { id, headers: { 'If-Match': oldTag } });
    const rules = staleMatchRules(resource.delete, resource);
    check.conform(
      resource.delete,
      staleDelete,
      { statuses: [412], rules: [...rules, ...sentence.deleteIfMatch] },
      'delete with a stale If-Match',
    );
  }
  const deleted = await ctx.send(resource.delete, { id, headers: { 'If-Match': newTag } });
  const okDelete = successStatuses(resource.delete);
  check.conform(resource.delete, deleted, { statuses: okDelete, rules: sentence.deleteIfMatch }, 'delete with the current ETag');
}
