// The operations of the model-based sequences, as fast-check commands: each picks its target
// among the kit's own resources by index (so a shrunk sequence still makes sense), sends one
// request, and holds the answer against the executable model (kit/model/), which it then updates.
import { randomUUID } from 'node:crypto';
import type fc from 'fast-check';
import type { KitContext } from '../../context.ts';
import type { Exchange } from '../../http.ts';
import { type Answer, judgeCreate, judgeDelete, judgeRead } from '../../model/answers.ts';
import { staleTag } from '../../model/etags.ts';
import type { Json } from '../../model/facts.ts';
import type { quotaTracker } from '../../model/quota.ts';
import { judgeKeyedCreate } from '../../model/replays.ts';
import { type Difference, type Known, knownOf, type ModelState } from '../../model/state.ts';
import type { OperationModel } from '../../spec.ts';
import { crudNamed } from './rule-support.ts';

export interface Real {
  ctx: KitContext;
  /** Valid bodies per resource, generated once from the kit's seed. */
  pools: Record<string, Json[]>;
  /** The receiver path of each webhook the sequence created. */
  hooks: Map<string, string>;
  newHookPath(): Promise<{ url: string; path: string }>;
  quota: ReturnType<typeof quotaTracker>;
  /** Every exchange of the sequence, for the report. */
  exchanges: Exchange[];
}

/** What the model found wrong, with the step that showed it. */
export class ModelDifference extends Error {
  readonly step: string;
  readonly differences: Difference[];
  constructor(step: string, differences: Difference[]) {
    super(`${step}: ${differences.map((d) => `rule ${d.rule}: ${d.message}`).join('; ')}`);
    this.step = step;
    this.differences = differences;
  }
}

/** A sequence step: `label` is how a shrunk sequence prints it. */
export function command(
  label: string,
  check: (state: Readonly<ModelState>) => boolean,
  run: (state: ModelState, real: Real) => Promise<void>,
): Cmd {
  return { check, run, toString: () => label };
}

export type Condition = 'none' | 'current' | 'weak' | 'stale';
export type Cmd = fc.AsyncCommand<ModelState, Real>;

export async function send(
  real: Real,
  op: OperationModel,
  spec: Parameters<KitContext['send']>[1],
): Promise<Answer & { exchange: Exchange }> {
  const sentAt = Date.now();
  const exchange = await real.ctx.send(op, spec);
  const receivedAt = Date.now();
  real.exchanges.push(exchange);
  // Timed by the answer: a request the kit held back for the quota went out a window after `sentAt`.
  const differences = real.quota.observe(
    exchange.headers.get('ratelimit-policy'),
    exchange.headers.get('ratelimit'),
    receivedAt,
    exchange.status,
  );
  if (differences.length > 0 && spec.auth !== 'read') throw new ModelDifference(`${op.operationId}`, differences);
  return { status: exchange.status, header: (name) => exchange.headers.get(name), json: exchange.json, sentAt, receivedAt, exchange };
}

export function judged(step: string, differences: Difference[]): void {
  if (differences.length > 0) throw new ModelDifference(step, differences);
}

export const pick = (state: ModelState, resource: string, index: number): Known | undefined => {
  const all = knownOf(state, resource);
  return all.length === 0 ? undefined : all[index % all.length];
};

export function tagFor(known: Known, condition: Condition): string | undefined {
  if (condition === 'none') return undefined;
  if (condition === 'weak') return `W/${known.etag ?? '"kit-never-issued"'}`;
  return condition === 'current' ? known.etag : staleTag(known);
}

/** Conditions a command may use on a resource: a webhook's tag moves with every delivery, so only a weak one is certain. */
export const usable = (resource: string, condition: Condition) => resource !== 'webhooks' || condition === 'none' || condition === 'weak';

/** A create body from the pool; a webhook gets a path of its own on the receiver, every event type for some variants. */
async function createBody(state: ModelState, real: Real, resource: string, variant: number): Promise<{ body: Json; path?: string }> {
  const pool = real.pools[resource]!;
  const body = { ...pool[variant % pool.length]! };
  if (resource === 'findings') {
    const policy = pick(state, 'policies', variant);
    body.policy_id = variant % 3 === 0 || !policy ? null : policy.id;
  }
  if (resource !== 'webhooks') return { body };
  const { url, path } = await real.newHookPath();
  body.url = url;
  body.enabled = variant % 5 !== 4;
  if (variant % 4 === 0) body.events = real.ctx.model.webhooks.map((webhook) => webhook.event).slice(0, 6);
  if (variant % 2 === 0) delete body.secret;
  return { body, path };
}

export function create(resource: string, variant: number, key?: number): Cmd {
  const label = `create ${resource} #${variant}${key === undefined ? '' : ` with Idempotency-Key k${key}`}`;
  return command(
    label,
    () => true,
    async (state, real) => {
      const { body, path } = await createBody(state, real, resource, variant);
      const headers: Record<string, string> = key === undefined ? {} : { 'Idempotency-Key': keyName(real, resource, key) };
      const answer = await send(real, crudNamed(real.ctx, resource).create, { body, headers });
      const id = (answer.json as Json | undefined)?.id;
      if (path && typeof id === 'string' && answer.status === 201) real.hooks.set(id, path);
      if (key !== undefined && !lastBodies.get(real)?.[keyName(real, resource, key)])
        lastBodies.set(real, { ...lastBodies.get(real), [keyName(real, resource, key)]: { resource, body } });
      judged(
        label,
        key === undefined
          ? judgeCreate(state, resource, body, answer)
          : judgeKeyedCreate(state, resource, keyName(real, resource, key), body, answer),
      );
    },
  );
}

const keyNames = new WeakMap<Real, string>();
/** Keys are the sequence's own, and one resource's: whether a key spans collections is not the document's to say. */
const keyName = (real: Real, resource: string, key: number) =>
  `${keyNames.get(real) ?? keyNames.set(real, randomUUID()).get(real)}-${resource}-k${key}`;
const lastBodies = new WeakMap<Real, Record<string, { resource: string; body: Json }>>();

/** Sends a keyed create again: the same body (a replay of the first answer) or another one (409). */
export function replay(resource: string, key: number, sameBody: boolean): Cmd {
  const label = `send the ${resource} create with Idempotency-Key k${key} again${sameBody ? '' : ' with another body'}`;
  return command(
    label,
    () => true,
    async (state, real) => {
      const first = lastBodies.get(real)?.[keyName(real, resource, key)];
      if (!first) return;
      const body = sameBody ? first.body : { ...first.body, description: `changed ${randomUUID()}` };
      const answer = await send(real, crudNamed(real.ctx, first.resource).create, {
        body,
        headers: { 'Idempotency-Key': keyName(real, resource, key) },
      });
      judged(label, judgeKeyedCreate(state, first.resource, keyName(real, resource, key), body, answer));
    },
  );
}

export const applies = (resource: string, index: number, condition: Condition) => (state: Readonly<ModelState>) =>
  pick(state, resource, index) !== undefined && usable(resource, condition);
export const conditioned = (condition: Condition, header: string) => (condition === 'none' ? '' : ` with ${header} (${condition} tag)`);

export function read(resource: string, index: number, condition: Condition): Cmd {
  const label = `read ${resource}[${index}]${conditioned(condition, 'If-None-Match')}`;
  return command(label, applies(resource, index, condition), async (state, real) => {
    const known = pick(state, resource, index)!;
    const tag = tagFor(known, condition);
    const headers = tag ? { headers: { 'If-None-Match': tag } } : {};
    const answer = await send(real, crudNamed(real.ctx, resource).read, { id: known.id, auth: 'api', ...headers });
    judged(label, judgeRead(state, known.id, answer, tag));
  });
}

export function remove(resource: string, index: number, condition: Condition): Cmd {
  const label = `delete ${resource}[${index}]${conditioned(condition, 'If-Match')}`;
  return command(label, applies(resource, index, condition), async (state, real) => {
    const known = pick(state, resource, index)!;
    const tag = tagFor(known, condition);
    const answer = await send(real, crudNamed(real.ctx, resource).delete, {
      id: known.id,
      ...(tag ? { headers: { 'If-Match': tag } } : {}),
    });
    judged(label, judgeDelete(state, known.id, answer, tag));
  });
}
