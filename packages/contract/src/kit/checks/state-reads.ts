// Every resource state followed by a plain and a conditional read: each finding status (reached by
// allowed transitions from a fresh finding), a policy before and once a finding references it, a
// webhook disabled, re-enabled, rotating its secret, failing (its receiver answers 500) and
// disabled by the service (410). In each state a plain read answers the state; `If-None-Match` with the current tag
// answers 304; with the tag from before the change it answers 200 and the new representation,
// unless the representation did not change.
import { setTimeout as sleep } from 'node:timers/promises';
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import type { Exchange } from '../http.ts';
import type { ResourceModel } from '../spec.ts';
import { createFinding } from './shared/finding-events.ts';
import { crudNamed, findingUpdate, type Json, newSecret, sink, subscribe } from './shared/rule-support.ts';

const RULES = ['getPolicy.2', 'getFinding.2', 'getWebhook.2', 'idempotency-and-concurrency.3', 'header.ETag.2'] as const;
type Rule = (typeof RULES)[number];

export const stateReadsCheck = defineCheck({
  name: 'state-reads',
  column: 'reads',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 50, perCase: 0 },
  instances: (model, options) => {
    const names = model.resources.map((r) => r.name);
    if (!['policies', 'findings', 'webhooks'].every((name) => names.includes(name))) return [];
    const read = model.resources.find((r) => r.name === 'findings')!.read!;
    return [{ subjects: [read.label], run: (ctx, check) => stateReads(ctx, check, options.skipEvents === undefined) }];
  },
});

const NOT_MODIFIED: Record<string, Rule> = { policies: 'getPolicy.2', findings: 'getFinding.2', webhooks: 'getWebhook.2' };
const POLL_MS = 100;
/** How often the reads of one state are taken again while the resource keeps changing under them. */
const SETTLE_ATTEMPTS = 5;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The reads in one state: plain, conditional on the current tag, conditional on the tag from before. */
async function readsIn(
  ctx: KitContext,
  resource: ReturnType<typeof crudNamed>,
  id: string,
  state: string,
  check: Check<Rule>,
  before?: { tag: string; json: unknown },
) {
  const rule = NOT_MODIFIED[resource.name] ?? 'idempotency-and-concurrency.3';
  // A resource may change between the reads of one state (a failing webhook's `last_delivery` as
  // its retries end): an answer whose ETag is not the plain read's saw a newer representation,
  // which is legal, so the reads are taken again until they agree on one.
  let plain: Exchange;
  let tag: string;
  let current: Exchange;
  let stale: Exchange | undefined;
  let attempt = 0;
  do {
    plain = await ctx.send(resource.read, { id, auth: 'api' });
    tag = plain.headers.get('etag') ?? '';
    current = await ctx.send(resource.read, { id, auth: 'api', headers: { 'If-None-Match': tag } });
    stale =
      before && before.tag !== tag
        ? await ctx.send(resource.read, { id, auth: 'api', headers: { 'If-None-Match': before.tag } })
        : undefined;
  } while (++attempt < SETTLE_ATTEMPTS && [current, stale].some((read) => read?.status === 200 && read.headers.get('etag') !== tag));
  check.conform(resource.read, plain, { statuses: [200] }, `a plain read of a ${resource.name} item ${state}`);
  check.conform(
    resource.read,
    current,
    { statuses: [304], rules: [rule, 'idempotency-and-concurrency.3'] },
    `a conditional read ${state}, with the current ETag`,
  );
  if (before && stale) {
    check.conform(
      resource.read,
      stale,
      { statuses: [200], rules: ['header.ETag.2'] },
      `a conditional read ${state}, with the ETag from before the change`,
    );
    if (!same(stale.json, plain.json))
      check.fail({
        at: resource.read,
        rule: 'header.ETag.2',
        observed: `a conditional read ${state} with the earlier tag answered another representation than a plain read`,
        exchange: stale,
      });
  }
  if (before && before.tag === tag && !same(stripTimes(before.json), stripTimes(plain.json)))
    check.fail({
      at: resource.read,
      rule: 'header.ETag.2',
      observed: `the ${resource.name} item changed (${state}) but kept its ETag ${tag}`,
      exchange: plain,
    });
  return { tag, json: plain.json, exchange: plain };
}

/** What a representation says apart from when it was read. */
const stripTimes = (json: unknown) => ({ ...(json as Json), updated_at: undefined });

async function waitForState(
  ctx: KitContext,
  webhooks: ResourceModel & ReturnType<typeof crudNamed>,
  id: string,
  done: (json: Json) => boolean,
): Promise<Exchange | undefined> {
  const started = Date.now();
  while (Date.now() - started < ctx.options.eventTimeoutMs) {
    const read = await ctx.send(webhooks.read, { id, auth: 'api' });
    if (read.status === 200 && done(read.json as Json)) return read;
    await sleep(POLL_MS);
  }
  return undefined;
}

async function stateReads(ctx: KitContext, check: Check<Rule>, withEvents: boolean): Promise<'passed' | { note: string }> {
  const [policies, findings, webhooks] = [crudNamed(ctx, 'policies'), crudNamed(ctx, 'findings'), crudNamed(ctx, 'webhooks')];
  // A policy, before and once an open finding references it.
  const policy = await ctx.create(policies, check);
  let seen = await readsIn(ctx, policies, policy.id, 'not in use', check);
  const finding = await createFinding(ctx, check, { policy_id: policy.id });
  await readsIn(ctx, policies, policy.id, 'in use', check, seen);
  // The finding through its statuses: open, in_progress, resolved, open again, suppressed.
  seen = await readsIn(ctx, findings, finding.id, 'open', check);
  for (const status of ['in_progress', 'resolved', 'open', 'suppressed']) {
    const moved = await ctx.send(findings.update, { id: finding.id, body: findingUpdate(seen.json as Json, status) });
    check.conform(findings.update, moved, { statuses: [200] }, `moving the finding to ${status}`);
    seen = await readsIn(ctx, findings, finding.id, status, check, seen);
  }
  // Webhooks point at the kit's receiver, which a target that cannot reach it (events out of
  // scope, such as a production target refusing private addresses) would refuse to store.
  if (!withEvents) return { note: 'events skipped: webhook states not reached' };
  // A webhook disabled by the client, enabled again, then rotating its secret.
  const sunk = await sink(ctx, 'state-reads');
  const hook = await subscribe(ctx, check, sunk.url, ['finding.created'], { secret: newSecret() });
  seen = await readsIn(ctx, webhooks, hook.id, 'enabled', check);
  for (const enabled of [false, true]) {
    const body = { url: hook.json.url, events: hook.json.events, description: hook.json.description, enabled };
    check.conform(
      webhooks.update,
      await ctx.send(webhooks.update, { id: hook.id, body }),
      { statuses: [200] },
      `setting enabled ${enabled}`,
    );
    seen = await readsIn(ctx, webhooks, hook.id, enabled ? 're-enabled' : 'disabled by the client', check, seen);
  }
  const rotation = { url: hook.json.url, events: hook.json.events, description: hook.json.description, enabled: true, secret: newSecret() };
  check.conform(
    webhooks.update,
    await ctx.send(webhooks.update, { id: hook.id, body: rotation }),
    { statuses: [200] },
    'replacing its secret',
  );
  await readsIn(ctx, webhooks, hook.id, 'rotating its secret', check, seen);
  await ctx.send(webhooks.delete, { id: hook.id });
  // Webhooks whose receivers fail (500) and are gone (410), each read once the service says so.
  const [failing, gone] = await Promise.all([
    sink(ctx, 'state-failing', () => ({ status: 500 })),
    sink(ctx, 'state-gone', () => ({ status: 410 })),
  ]);
  const [failingHook, goneHook] = await Promise.all([
    subscribe(ctx, check, failing.url, ['finding.created']),
    subscribe(ctx, check, gone.url, ['finding.created']),
  ]);
  const [failingBefore, goneBefore] = await Promise.all([
    readsIn(ctx, webhooks, failingHook.id, 'enabled', check),
    readsIn(ctx, webhooks, goneHook.id, 'enabled', check),
  ]);
  await createFinding(ctx, check);
  const failed = await waitForState(ctx, webhooks, failingHook.id, (json) => (json.last_delivery as Json | null)?.succeeded === false);
  const disabled = await waitForState(ctx, webhooks, goneHook.id, (json) => json.disabled_reason === 'endpoint_gone');
  if (!failed || !disabled)
    return {
      note: `the service did not report ${failed ? '' : 'a failed delivery'}${!failed && !disabled ? ' nor ' : ''}${disabled ? '' : 'a 410'} within ${ctx.options.eventTimeoutMs} ms: those states not read`,
    };
  await readsIn(ctx, webhooks, failingHook.id, 'failing', check, failingBefore);
  await readsIn(ctx, webhooks, goneHook.id, 'disabled by the service', check, goneBefore);
  await Promise.all([failingHook, goneHook].map((h) => ctx.send(webhooks.delete, { id: h.id })));
  return 'passed';
}
