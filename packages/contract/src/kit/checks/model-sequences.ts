// `model-sequences`: seeded random sequences of operations (creates, reads, replaces, deletes,
// conditional and idempotent requests, invalid requests, list walks, raised events, webhook
// changes and secret rotation) run against the target with fast-check's model-based testing;
// every answer and every delivery on the sequence's webhooks is held against the executable
// model (kit/model/). A difference is shrunk to the shortest sequence that still shows it and
// reported with the rule it breaks. Only the kit's own resources are asserted on, so another
// client using the target at the same time cannot fail it.

import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import { type Check, found } from '../failure.ts';
import { judgeDeliveries, owed, type SeenDelivery } from '../model/deliveries.ts';
import { type Json, resourceFacts } from '../model/facts.ts';
import { quotaTracker } from '../model/quota.ts';
import { emptyState, type ModelState } from '../model/state.ts';
import type { Delivery } from '../receiver.ts';
import { documentedResources } from './shared/documented.ts';
import { invalid, raise, replace, walk } from './shared/model-changes.ts';
import { type Cmd, type Condition, create, judged, ModelDifference, type Real, read, remove, replay } from './shared/model-commands.ts';
import { minimise, ranCommands } from './shared/model-shrink.ts';
import { crudNamed, parseBody } from './shared/rule-support.ts';

const RULES = [
  'errors.2',
  'errors.5',
  'errors.14',
  'idempotency-and-concurrency.1',
  'idempotency-and-concurrency.2',
  'idempotency-and-concurrency.3',
  'idempotency-and-concurrency.4',
  'limits.3',
  'rate-limits.2',
  'webhooks.2',
  'delivery-headers.1',
  'createPolicy.2',
  'createPolicy.3',
  'createFinding.3',
  'createWebhook.2',
  'createWebhook.4',
  'updatePolicy.1',
  'updatePolicy.2',
  'updateFinding.1',
  'updateFinding.2',
  'updateFinding.7',
  'updateWebhook.1',
  'deletePolicy.1',
  'deletePolicy.2',
  'schema.Finding.2',
  'schema.Finding.3',
  'schema.FindingCreate.2',
  'schema.FindingCreate.3',
  'schema.WebhookUpdate.2',
  'listPolicies.2',
  'listFindings.2',
  'listWebhooks.2',
  'listPolicies.3',
  'listFindings.3',
  'listWebhooks.3',
  'pagination.3',
  'test-support-not-part-of-the-v1-contract.3',
  'test-support-not-part-of-the-v1-contract.4',
] as const;
type Rule = (typeof RULES)[number];

export const modelSequencesCheck = defineCheck({
  name: 'model-sequences',
  column: 'model',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 3, perCase: 5 },
  instances: (model) => {
    const found = documentedResources(model);
    if (!found) return [];
    const { policies, findings, webhooks } = found;
    const subjects = [policies.create, policies.read, policies.update, policies.delete, policies.list, findings.update, webhooks.update];
    return [
      { subjects: subjects.map((op) => op.label), run: (ctx, check, cases) => modelSequences(ctx, subjects[0]!.label, check, cases) },
    ];
  },
});

const RESOURCES = ['policies', 'findings', 'webhooks'] as const;
const MAX_COMMANDS = 30;
/** How long to watch for a delivery that must not come, once the ones that must have come. */
const QUIET_MS = 500;
/** Shrinking re-runs sequences against the target: bounded so a failing run still ends. */
const SHRINK_BUDGET_MS = 20_000;

function commandArbitraries(): fc.Arbitrary<Cmd>[] {
  const resource = fc.constantFrom(...RESOURCES);
  const index = fc.nat(7);
  const condition = fc.constantFrom<Condition>('none', 'current', 'weak', 'stale');
  const creates = fc.tuple(resource, index, fc.option(fc.nat(2), { nil: undefined })).map(([r, v, k]) => create(r, v, k));
  return [
    creates,
    creates,
    creates,
    fc.tuple(resource, index, condition).map(([r, i, c]) => read(r, i, c)),
    fc.tuple(resource, index, fc.nat(11), condition).map(([r, i, v, c]) => replace(r, i, v, c)),
    fc.tuple(resource, index, fc.nat(11), condition).map(([r, i, v, c]) => replace(r, i, v, c)),
    fc.tuple(resource, index, condition).map(([r, i, c]) => remove(r, i, c)),
    fc.tuple(resource, fc.nat(2), fc.boolean()).map(([r, k, same]) => replay(r, k, same)),
    fc.tuple(resource, fc.array(fc.nat(9), { minLength: 2, maxLength: 4 })).map(([r, fields]) => invalid(r, fields)),
    fc.tuple(resource, fc.nat(3), fc.constantFrom(1, 2, 100)).map(([r, f, l]) => walk(r, f, l)),
    fc.tuple(index, fc.nat(2)).map(([i, t]) => raise(i, t)),
  ];
}

function seen(real: Real, deliveries: Delivery[]): SeenDelivery[] {
  const byPath = [...real.hooks].map(([id, path]) => ({ id, path }));
  return deliveries.flatMap((delivery) => {
    const hook = byPath.find((h) => delivery.path === h.path);
    const body = parseBody(delivery);
    if (!hook || !body?.event) return [];
    const signature = delivery.headers['x-service-signature'];
    return [
      {
        webhookId: hook.id,
        deliveryId: String(delivery.headers['x-service-delivery']),
        type: body.event,
        data: body.data ?? {},
        raw: delivery.raw,
        ...(typeof signature === 'string' ? { signature } : {}),
      },
    ];
  });
}

/** Waits for the deliveries the model says are owed, watches a moment for ones that must not come, and judges them. */
async function settle(ctx: KitContext, state: ModelState, real: Real): Promise<void> {
  if (ctx.options.events === 'skip' || real.hooks.size === 0 || state.events.length === 0) return;
  const receiver = await ctx.receiver();
  await receiver.waitUntil((all) => owed(state, seen(real, all)).length === 0, ctx.options.eventTimeoutMs, 'paced');
  const excluding = state.events.some((event) => event.recipients.size < real.hooks.size);
  if (excluding) await sleep(QUIET_MS);
  judged('the deliveries on the sequence’s webhooks', judgeDeliveries(state, seen(real, receiver.deliveries)));
}

/** The sequence's webhooks are deleted at its end, so nothing more is delivered to them. */
async function teardown(ctx: KitContext, real: Real): Promise<void> {
  const webhooks = crudNamed(ctx, 'webhooks');
  for (const id of real.hooks.keys()) await ctx.send(webhooks.delete, { id }).catch(() => undefined);
}

async function pools(ctx: KitContext): Promise<Record<string, Json[]>> {
  const out: Record<string, Json[]> = {};
  for (const name of RESOURCES) out[name] = (await ctx.validBodies(crudNamed(ctx, name).create, 8)) as Json[];
  return out;
}

/**
 * Sequences every run starts with, before the random ones: each reaches an area of the model a
 * short random sequence rarely combines (a replay after a change, conditional writes, a finding's
 * life cycle with its events at enabled, disabled and targeted webhooks).
 */
function openings(): Cmd[][] {
  return [
    [
      create('policies', 1, 0),
      replace('policies', 0, 1, 'current'),
      replay('policies', 0, true),
      read('policies', 0, 'current'),
      replace('policies', 0, 2, 'weak'),
      remove('policies', 0, 'stale'),
      remove('policies', 0, 'current'),
    ],
    [
      create('webhooks', 0),
      create('webhooks', 4),
      create('webhooks', 8),
      create('policies', 2),
      create('findings', 1),
      replace('findings', 0, 2, 'current'),
      replace('findings', 0, 0, 'none'),
      raise(0, 0),
      raise(1, 1),
      raise(2, 2),
      replace('webhooks', 0, 1, 'none'),
      replace('webhooks', 2, 2, 'none'),
      walk('findings', 1, 2),
      invalid('policies', [0, 1, 2]),
    ],
  ];
}

/**
 * How many sequences a run executes for the kit's case count, the openings included (24 by default
 * gives 12); a time budget that samples every check down to one case gets the first opening alone.
 */
const sequencesFor = (cases: number) => (cases < 2 ? 1 : Math.max(2, Math.ceil(cases / 2)));

async function modelSequences(ctx: KitContext, subject: string, check: Check<Rule>, cases: number): Promise<{ note: string }> {
  const facts = resourceFacts(ctx.model);
  const bodies = await pools(ctx);
  let sequences = 0;
  let steps = 0;
  /** The last sequence that failed: its requests go in the report. */
  let failing: Real | undefined;
  let failedAt: number | undefined;
  const runSequence = async (commands: Iterable<Cmd>) => {
    sequences++;
    const real: Real = {
      ctx,
      pools: bodies,
      hooks: new Map(),
      newHookPath: async () => {
        const path = `/model/${randomUUID()}`;
        const base = ctx.options.events === 'skip' ? 'https://secmon-contract.invalid' : (await ctx.receiver()).url;
        return { url: base + path, path };
      },
      quota: quotaTracker(),
      exchanges: [],
    };
    const state = emptyState(facts);
    try {
      await fc.asyncModelRun(() => ({ model: state, real }), commands);
      await settle(ctx, state, real);
    } catch (error) {
      failing = real;
      failedAt ??= performance.now();
      throw error;
    } finally {
      steps += real.exchanges.length;
      await teardown(ctx, real);
    }
  };
  // Until a sequence fails the bound counts the kit's own time, not the time it waits for the
  // target's quota (up to a window at a production quota: fast-check's time limit would fail a
  // first sequence caught by one); from the failure on it counts every second, so shrinking under
  // a small quota still ends. Once spent, further sequences and shrinks are not run.
  const started = performance.now();
  const waitedBefore = ctx.http.stats().waitedMs;
  const spent = () =>
    (failedAt === undefined ? performance.now() - started - (ctx.http.stats().waitedMs - waitedBefore) : performance.now() - failedAt) >
    SHRINK_BUDGET_MS;
  const property = fc.asyncProperty(fc.commands(commandArbitraries(), { maxCommands: MAX_COMMANDS, size: 'max' }), async (commands) => {
    if (!spent()) await runSequence(commands);
  });
  const result = await fc.check(property, {
    seed: ctx.options.seed,
    numRuns: sequencesFor(cases),
    examples: openings()
      .slice(0, sequencesFor(cases))
      .map((commands) => [commands]),
  });
  if (result.failed) {
    const ran = ranCommands(result.counterexample?.[0] ?? []);
    // An opening sequence is not shrunk by fast-check (it has no generation context): drop steps one by one instead.
    const shortest =
      result.numShrinks > 0
        ? { commands: ran, error: result.errorInstance, dropped: 0 }
        : await minimise(ran, result.errorInstance, runSequence, spent);
    const error = shortest.error;
    const difference = error instanceof ModelDifference ? error.differences[0] : undefined;
    const requests = (failing?.exchanges ?? []).slice(-4).map((e) => `${e.request.method} ${e.request.url} → ${e.status}`);
    const details = [
      `shortest failing sequence (${shortest.commands.length} steps, seed ${result.seed}, after ${result.numShrinks + shortest.dropped} shrinks):`,
      ...shortest.commands.map((step, i) => `  ${i + 1}. ${String(step)}`),
      ...(error instanceof ModelDifference ? [`failed at: ${error.step}`] : []),
      'last requests of the failing sequence:',
      ...requests.map((line) => `  ${line}`),
      `replay: --seed ${ctx.options.seed} (fast-check path ${result.counterexamplePath ?? '?'})`,
    ];
    // The model names the rule its difference breaks.
    if (difference)
      check.failAll({
        at: subject,
        found: found({ rule: difference.rule, observed: difference.message, details: [...(difference.details ?? []), ...details] }),
        exchange: failing?.exchanges.at(-1),
      });
    throw new Error(
      `${subject}: a sequence failed outside the model's verdicts: ${error instanceof Error ? error.message : String(error)}\n${details.join('\n')}`,
    );
  }
  return { note: `${sequences} sequence${sequences === 1 ? '' : 's'}, ${steps} requests, seed ${ctx.options.seed}` };
}
