// Resource states × operations: every status of a resource with a life cycle and every change of
// it (each allowed transition, each refused one, and setting the status it already has), webhooks
// enabled, disabled by the client, re-enabled, failing and disabled by the service (each reason the
// document lists), policies in use or not; each state followed by a plain and a conditional read.
// The cells come from the document (the status enum and its transition table, `disabled_reason`'s
// enum); a run's exchanges, replayed in order, say which it reached.

import { resolveRef } from 'secmon-api/src/document';
import { type Exchange, hasHeader } from '../http.ts';
import { transitionsOf } from '../semantics.ts';
import type { ContractModel, ResourceModel } from '../spec.ts';
import { flatten } from './schema-fields.ts';
import type { Cell } from './space.ts';

export const STATES = 'states';
const READS = ['plain read', 'conditional read (If-None-Match)'] as const;
/** The service disables a failing webhook only after its retries ran out. */
const THREE_DAYS = 'a delivery retried for about three days (ten attempts) first';
const ROTATING = 'rotating its secret (the one replaced still valid)';

type Json = Record<string, unknown>;

interface StateAxes {
  cells: Cell[];
  /** Replays the run's exchanges in order; calls `hit` with each cell an exchange exercised. */
  replay(exchanges: readonly Exchange[], hit: (exchange: Exchange, cell: Cell) => void): void;
}

const cell = (axis: string, value: string): Cell => ({ family: STATES, axis, cell: value });

function itemId(resource: ResourceModel, url: string): string | undefined {
  const path = new URL(url).pathname;
  const prefix = resource.itemPath.replace(/\{[^}]+\}$/, '');
  if (!path.startsWith(prefix) || path.slice(prefix.length).includes('/') || path.length === prefix.length) return undefined;
  try {
    return decodeURIComponent(path.slice(prefix.length));
  } catch {
    // A percent-encoding that decodes to no text (invalid-parameters sends one): no resource's id.
    return undefined;
  }
}

const readKind = (exchange: Exchange) => (hasHeader(exchange.request.headers, 'if-none-match') ? READS[1] : READS[0]);

/**
 * The resources with a life cycle: the status property of each one's update body, its statuses
 * (the enum) and allowed moves, and for a status whose body requires a member with an enumerated
 * reason (`if status is resolved then resolution.reason is one of …`), that member and its reasons.
 */
export function lifecycles(model: ContractModel) {
  return model.resources.flatMap((resource) => {
    const transitions = transitionsOf(model, resource.update);
    if (!transitions || !resource.update) return [];
    const body = flatten(model.doc, { $ref: resource.update.body!.pointer });
    const statuses = (flatten(model.doc, (body.properties as Json)[transitions.property]).enum as string[]) ?? [];
    const reasons = new Map<string, { member: string; field: string; values: string[] }>();
    // The conditional parts, which flattening leaves out.
    const conditions = (resolveRef<Json>(model.doc, { $ref: resource.update.body!.pointer }).allOf as Json[] | undefined) ?? [];
    for (const part of conditions) {
      const branch = resolveRef<Json>(model.doc, part);
      const status = ((branch.if as Json | undefined)?.properties as Json | undefined)?.[transitions.property] as Json | undefined;
      const then = ((branch.then as Json | undefined)?.properties ?? {}) as Json;
      for (const [member, schema] of Object.entries(then))
        for (const [field, inner] of Object.entries(((schema as Json).properties ?? {}) as Json))
          if (typeof status?.const === 'string' && Array.isArray((inner as Json).enum))
            reasons.set(status.const, { member, field, values: (inner as Json).enum as string[] });
    }
    return [{ resource, property: transitions.property, statuses, allowed: transitions.allowed, reasons }];
  });
}

/** The state axes of the document's resources; a resource the document gives no states adds none. */
export function stateAxes(model: ContractModel): StateAxes {
  const lifecycle = lifecycles(model);
  const webhooks = model.resources.find((r) => r.name === 'webhooks');
  const reasons = webhooks?.read ? serviceReasons(model, webhooks) : [];
  const policies = model.resources.find((r) => r.name === 'policies');

  const cells: Cell[] = [];
  for (const { resource, statuses, allowed } of lifecycle) {
    const axis = `${resource.name} status change`;
    for (const from of statuses)
      for (const to of statuses) {
        const kind = from === to ? 'the status it has' : allowed.get(from)?.has(to) ? 'allowed' : 'refused';
        cells.push(cell(axis, `${from} → ${to} (${kind})`));
      }
    for (const status of statuses) for (const read of READS) cells.push(cell(`${resource.name} ${status}`, read));
  }
  const webhookStates = [
    'enabled',
    'disabled by the client',
    're-enabled after disabled',
    ROTATING,
    'failing (last delivery failed, still enabled)',
    ...reasons.map((r) => `disabled by the service: ${r}`),
  ];
  if (webhooks)
    for (const state of webhookStates)
      for (const read of READS)
        cells.push({ ...cell(`webhooks ${state}`, read), ...(state.endsWith(': failing') ? { unreachable: THREE_DAYS } : {}) });
  if (policies) for (const use of ['in use', 'not in use']) for (const op of ['delete', ...READS]) cells.push(cell(`policies ${use}`, op));

  function replay(exchanges: readonly Exchange[], hit: (exchange: Exchange, cell: Cell) => void) {
    const known = new Map<string, Json>();
    const wasDisabled = new Set<string>();
    // A secret replaced while one was set: the replaced one stays valid for a day (no answer says so).
    const rotating = new Set<string>();
    const stateOf = (id: string): string | undefined => {
      const rep = known.get(id);
      if (!rep) return undefined;
      if (rep.enabled === false)
        return rep.disabled_reason ? `disabled by the service: ${String(rep.disabled_reason)}` : 'disabled by the client';
      if ((rep.last_delivery as Json | null)?.succeeded === false) return 'failing (last delivery failed, still enabled)';
      if (rotating.has(id)) return ROTATING;
      return wasDisabled.has(id) ? 're-enabled after disabled' : 'enabled';
    };
    const inUse = (policyId: string) =>
      [...known.values()].some((rep) => rep.policy_id === policyId && (rep.status === 'open' || rep.status === 'in_progress'));
    for (const exchange of exchanges) {
      const method = exchange.request.method;
      // A read shows the state it was made in: its own answer, or for a 304 what was known before.
      if (method === 'GET') remember(exchange, known, wasDisabled);
      for (const { resource, property } of lifecycle) {
        const id = itemId(resource, exchange.request.url);
        if (!id) continue;
        const before = known.get(id)?.[property];
        if (method === 'PUT' && (exchange.status === 200 || exchange.status === 409) && typeof before === 'string') {
          const to = (JSON.parse(exchange.request.body ?? '{}') as Json)[property];
          const found = cells.find((c) => c.axis === `${resource.name} status change` && c.cell.startsWith(`${before} → ${String(to)} (`));
          if (found) hit(exchange, found);
        }
        if (method === 'GET' && (exchange.status === 200 || exchange.status === 304) && typeof before === 'string')
          hit(exchange, cell(`${resource.name} ${before}`, readKind(exchange)));
      }
      if (webhooks) {
        const id = itemId(webhooks, exchange.request.url);
        if (id && method === 'PUT' && exchange.status === 200) {
          const secret = (JSON.parse(exchange.request.body ?? '{}') as Json).secret;
          if (secret === null) rotating.delete(id);
          else if (typeof secret === 'string' && known.get(id)?.has_secret === true) rotating.add(id);
        }
        const state = id && stateOf(id);
        if (id && state && method === 'GET' && (exchange.status === 200 || exchange.status === 304))
          hit(exchange, cell(`webhooks ${state}`, readKind(exchange)));
      }
      if (policies) {
        const id = itemId(policies, exchange.request.url);
        if (id && known.has(id)) {
          const use = exchange.status === 409 && method === 'DELETE' ? 'in use' : inUse(id) ? 'in use' : 'not in use';
          if (method === 'DELETE' && exchange.status !== 404) hit(exchange, cell(`policies ${use}`, 'delete'));
          if (method === 'GET' && (exchange.status === 200 || exchange.status === 304))
            hit(exchange, cell(`policies ${use}`, readKind(exchange)));
        }
      }
      if (method !== 'GET') remember(exchange, known, wasDisabled);
    }
  }
  return { cells, replay };
}

/** Every representation a 2xx answer carried (an item or a page's items), by id. */
function remember(exchange: Exchange, known: Map<string, Json>, wasDisabled: Set<string>) {
  if (exchange.request.method === 'DELETE' && exchange.status < 300) known.delete(new URL(exchange.request.url).pathname.split('/').pop()!);
  if (exchange.status < 200 || exchange.status >= 300 || typeof exchange.json !== 'object' || exchange.json === null) return;
  const json = exchange.json as Json;
  const items = Array.isArray(json.data) ? (json.data as Json[]) : [json];
  for (const item of items) {
    if (typeof item?.id !== 'string') continue;
    if (item.enabled === false) wasDisabled.add(item.id);
    known.set(item.id, item);
  }
}

/** The reasons the service disables a webhook, from the enum of its `disabled_reason`. */
function serviceReasons(model: ContractModel, webhooks: ResourceModel): string[] {
  const ok = [...webhooks.read!.responses.values()].find((r) => r.status === '200');
  const pointer = ok?.content.get('application/json');
  if (!pointer) return [];
  const schema = flatten(model.doc, { $ref: pointer });
  const reason = flatten(model.doc, (schema.properties as Json | undefined)?.disabled_reason);
  return ((reason.enum as unknown[] | undefined) ?? []).filter((r): r is string => typeof r === 'string');
}
