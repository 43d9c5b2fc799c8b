// The sequence commands that change or probe more than one resource: replacements (a policy by
// another valid body, a finding moved through its life cycle, a webhook's subscription, state
// and secret), invalid creates with several broken fields, filtered list walks, and events
// raised through test support for one webhook.
import { randomBytes } from 'node:crypto';
import { lifecycles } from '../axes/states.ts';
import { judgeReplace } from '../model/answers.ts';
import { emit } from '../model/causes.ts';
import type { Json } from '../model/facts.ts';
import { judgeWalk } from '../model/listing.ts';
import { breakFields, judgeInvalid } from '../model/problems.ts';
import { raiseEvent, SIMULATOR_PATH } from '../raise.ts';
import type { RuleId } from '../rules/catalogue.ts';
import type { ContractModel } from '../spec.ts';
import type { Cmd } from './model-commands.ts';
import { applies, type Condition, command, conditioned, judged, pick, send, tagFor } from './model-commands.ts';
import { crudNamed } from './rule-support.ts';

/** A finding's next status and the reason it needs, drawn from the life cycle the document states (every status, every reason). */
function lifecycleStep(model: ContractModel, resource: string, variant: number): Json {
  const cycle = lifecycles(model).find((c) => c.resource.name === resource);
  if (!cycle) return {};
  const status = cycle.statuses[variant % cycle.statuses.length]!;
  const reason = cycle.reasons.get(status);
  return {
    [cycle.property]: status,
    ...(reason
      ? { [reason.member]: { [reason.field]: reason.values[Math.floor(variant / cycle.statuses.length) % reason.values.length] } }
      : {}),
  };
}

function replacement(model: ContractModel, resource: string, current: Json, variant: number, pool: Json[], policies: string[]): Json {
  if (resource === 'policies') return { ...pool[variant % pool.length]! };
  if (resource === 'findings') {
    return {
      title: current.title,
      severity: current.severity,
      ...lifecycleStep(model, resource, variant),
      ...(variant % 5 === 0 ? {} : { description: current.description }),
      ...(policies.length > 0 && variant % 3 !== 0 ? { policy_id: policies[variant % policies.length] } : {}),
    };
  }
  const events = current.events as string[];
  const secret = variant % 3 === 0 ? {} : variant % 3 === 1 ? { secret: null } : { secret: `kit_${randomBytes(16).toString('hex')}` };
  return { url: current.url, events: variant % 4 === 3 ? events.slice(0, 1) : events, enabled: variant % 2 === 0, ...secret };
}

export function replace(resource: string, index: number, variant: number, condition: Condition): Cmd {
  const label = `replace ${resource}[${index}] (variant ${variant})${conditioned(condition, 'If-Match')}`;
  return command(label, applies(resource, index, condition), async (state, real) => {
    const known = pick(state, resource, index)!;
    const policies = [...state.known.values()].filter((k) => k.resource === 'policies').map((k) => k.id);
    const current = { ...known.expected, url: (known.seen as Json | undefined)?.url ?? known.expected.url };
    const body = replacement(real.ctx.model, resource, current, variant, real.pools[resource]!, policies);
    const tag = tagFor(known, condition);
    const answer = await send(real, crudNamed(real.ctx, resource).update, {
      id: known.id,
      body,
      ...(tag ? { headers: { 'If-Match': tag } } : {}),
    });
    judged(label, judgeReplace(state, known.id, body, answer, tag));
  });
}

export function invalid(resource: string, fields: number[]): Cmd {
  const label = `create ${resource} with ${fields.length} fields of the wrong type`;
  return command(
    label,
    () => true,
    async (_state, real) => {
      const op = crudNamed(real.ctx, resource).create;
      const valid = (body: Json) => real.ctx.validator.validate(op.body!.pointer, body).valid;
      const { body, broken } = breakFields(real.pools[resource]![0]!, fields, valid);
      if (broken.length === 0) return;
      const answer = await send(real, op, { body });
      judged(`${label} (${broken.join(', ')})`, judgeInvalid(broken, answer.status, answer.exchange.mediaType, answer.json));
    },
  );
}

type Filters = Record<string, string>;
const NONE: Filters = {};
const FILTERS: Record<string, (known: Json[]) => Filters[]> = {
  policies: () => [NONE, { enabled: 'true' }, { enabled: 'false' }, { severity: 'high' }],
  findings: (known) => [
    NONE,
    { status: 'open' },
    { status: 'resolved' },
    ...known.slice(0, 1).map((k) => ({ device_id: String(k.device_id) })),
  ],
  webhooks: () => [NONE, { enabled: 'false' }, { event: 'finding.created' }],
};

/** How many pages a walk reads at most: a busy target's older items are not the kit's to judge. */
const MAX_PAGES = 5;

export function walk(resource: string, filter: number, limit: number): Cmd {
  const label = `walk the ${resource} list (filter ${filter}, limit ${limit})`;
  return command(
    label,
    () => true,
    async (state, real) => {
      const known = [...state.known.values()].filter((k) => k.resource === resource).map((k) => k.expected);
      const options = FILTERS[resource]!(known);
      const filters = options[filter % options.length]!;
      const op = crudNamed(real.ctx, resource).list;
      const items: Json[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: Record<string, string> = { ...filters, limit: String(limit), ...(cursor ? { cursor } : {}) };
        const answer = await send(real, op, { query, auth: 'api' });
        if (answer.status !== 200) return judged(label, [{ rule: 'pagination.3', message: `a page answered ${answer.status}` }]);
        const page = answer.json as { data: Json[]; next_cursor: string | null };
        items.push(...page.data);
        cursor = page.next_cursor;
      } while (cursor && ++pages < MAX_PAGES);
      const rules = LIST_RULES[resource]!;
      judged(`${label} ${JSON.stringify(filters)}`, judgeWalk(state, resource, filters, items, cursor === null, rules));
    },
  );
}

const LIST_RULES: Record<string, { order: RuleId; filter: RuleId }> = {
  policies: { order: 'listPolicies.2', filter: 'listPolicies.3' },
  findings: { order: 'listFindings.2', filter: 'listFindings.3' },
  webhooks: { order: 'listWebhooks.2', filter: 'listWebhooks.3' },
};

const RAISED = ['device.connected', 'device.disconnected', 'scan.completed'];

/** A device id of the kit's own for a raised event, so its deliveries are known as the kit's. */
const deviceId = () => `dev_0${Array.from(randomBytes(25), (b) => '0123456789abcdefghjkmnpqrstvwxyz'[b % 32]).join('')}`;

export function raise(index: number, type: number): Cmd {
  const event = RAISED[type % RAISED.length]!;
  const label = `raise ${event} for webhooks[${index}]`;
  return command(
    label,
    (state) => pick(state, 'webhooks', index) !== undefined,
    async (state, real) => {
      const hook = pick(state, 'webhooks', index)!;
      const data = { device_id: deviceId() };
      if (hook.expected.enabled !== true || !(hook.expected.events as string[]).includes(event)) {
        // A trigger command raises events its own way: only the simulator route promises this refusal.
        if (real.ctx.options.triggerCommand) return;
        const sent = await real.ctx.http.send({ method: 'POST', path: SIMULATOR_PATH, body: { event, data, webhook_id: hook.id } });
        real.exchanges.push(sent);
        if (sent.status === 404 || sent.status === 405 || sent.status === 400) return;
        const why = hook.expected.enabled === true ? `not subscribed to ${event}` : 'disabled';
        return judged(label, [
          {
            rule: 'test-support-not-part-of-the-v1-contract.4',
            message: `raising ${event} for a webhook ${why} answered ${sent.status}, not 400`,
          },
        ]);
      }
      const outcome = await raiseEvent(real.ctx, { event, webhookId: hook.id, data });
      if ('refused' in outcome) judged(label, [{ rule: 'test-support-not-part-of-the-v1-contract.4', message: outcome.refused }]);
      // A command promises only the type on the webhook it names (it may send it to every
      // subscriber, with data of its own); the simulator route promises the target and the data.
      if ('raised' in outcome) {
        if (real.ctx.options.triggerCommand) emit(state, event, {}, hook.id, true);
        else emit(state, event, data, hook.id);
      }
    },
  );
}
