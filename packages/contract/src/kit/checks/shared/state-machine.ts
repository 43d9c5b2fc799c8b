// Resources moved through their state machine by legal transitions: the update bodies that reach
// each state, and items spread over every state and filterable value, so a filter the target
// ignores shows.
import type { KitContext } from '../../context.ts';
import type { AnyCheck } from '../../failure.ts';
import type { Transitions } from '../../semantics.ts';
import type { Crud } from './stateful.ts';

export type BodyFor = (state: string) => unknown;

/** A generated valid update body for each state of the machine. */
export async function updateBodies(ctx: KitContext, resource: Crud, machine: Transitions): Promise<BodyFor> {
  // A pool to pick from, generated and never sent: its size does not follow --cases.
  const bodies = await ctx.validBodies(resource.update, UPDATE_POOL);
  return (state) => {
    const body = bodies.find((candidate) => (candidate as Record<string, unknown>)[machine.property] === state);
    if (!body) throw new Error(`no valid ${resource.update.operationId} body with ${machine.property}=${state} was generated`);
    return body;
  };
}

/** Creates a resource and moves it to `state` by legal transitions. */
export async function moveTo(
  ctx: KitContext,
  resource: Crud,
  machine: Transitions,
  state: string,
  bodyFor: BodyFor,
  check: AnyCheck,
): Promise<{ id: string }> {
  const { id, exchange } = await ctx.create(resource, check);
  const initial = (exchange.json as Record<string, unknown>)[machine.property] as string;
  for (const step of pathTo(machine, initial, state)) {
    const moved = await ctx.send(resource.update, { id, body: bodyFor(step) });
    check.conform(resource.update, moved, { statuses: [200] }, `moving ${initial} towards ${state} via ${step} (a legal transition)`);
  }
  return { id };
}

/**
 * Items that differ in every filterable property, so a filter the target ignores shows: a few
 * generated creates, and (for a resource with a state machine) one item in each state.
 */
export async function diversify(
  ctx: KitContext,
  resource: Crud,
  machine: Transitions | undefined,
  check: AnyCheck,
  cases: number,
): Promise<void> {
  // Sampled down with the generated cases when a time budget asks for fewer.
  for (const body of await ctx.validBodies(resource.create, Math.min(DIVERSE_ITEMS, cases))) await ctx.create(resource, check, body);
  if (!machine) return;
  const bodyFor = await updateBodies(ctx, resource, machine);
  for (const state of machine.allowed.keys()) await moveTo(ctx, resource, machine, state, bodyFor, check);
}

export const DIVERSE_ITEMS = 4;

export const UPDATE_POOL = 96;

/** Shortest sequence of legal moves from one state to another (breadth first). */
export function pathTo(machine: Transitions, from: string, to: string): string[] {
  const previous = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const state = queue.shift()!;
    if (state === to) break;
    for (const next of machine.allowed.get(state) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, state);
        queue.push(next);
      }
    }
  }
  const path: string[] = [];
  for (let state: string | null | undefined = to; state && state !== from; state = previous.get(state)) path.unshift(state);
  return path;
}
