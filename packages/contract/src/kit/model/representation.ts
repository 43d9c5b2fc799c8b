// What a create or a replace must answer, as far as the document fixes it: the writable fields
// as sent or their defaults, and the read-only fields each resource's description states (a new
// policy is version 1 and compliant, a new finding is open, a webhook says whether it has a
// secret). What the implementation chooses (ids, timestamps) is learned, never predicted.
import type { RuleId } from '../rules/catalogue.ts';
import type { Json, ResourceFacts } from './facts.ts';
import type { Known } from './state.ts';

export type Prediction = { expected: Json } | { refused: number; rule: RuleId; why: string };

/** The life-cycle states in which a finding keeps its policy non-compliant (*compliance_status*). */
export const OPEN_STATES = new Set(['open', 'in_progress']);

function writable(facts: ResourceFacts, fields: string[], body: Json): Json {
  const out: Json = {};
  for (const field of fields) {
    if (facts.writeOnly.has(field)) continue;
    if (field in body) out[field] = facts.fill(field, body[field]);
    else if (facts.defaults.has(field)) out[field] = facts.defaults.get(field);
  }
  return out;
}

/** The fields a create of `body` must answer with (`deleted`: ids the kit deleted, which a reference may not name). */
export function predictCreate(facts: ResourceFacts, body: Json, deleted: Set<string>): Prediction {
  const expected = writable(facts, facts.createFields, body);
  switch (facts.name) {
    case 'policies':
      return { expected: { ...expected, version: 1, compliance_status: 'compliant' } };
    case 'findings':
      if (typeof body.policy_id === 'string' && deleted.has(body.policy_id))
        return { refused: 400, rule: 'schema.FindingCreate.3', why: 'the finding names a policy the kit deleted' };
      return { expected: { ...expected, status: 'open', resolution: null, resolved_at: null } };
    case 'webhooks':
      return { expected: { ...expected, has_secret: typeof body.secret === 'string', disabled_reason: null } };
    default:
      return { expected };
  }
}

/** The fields a replace of `known` by `body` must answer with, or the refusal the document prescribes. */
export function predictReplace(facts: ResourceFacts, known: Known, body: Json, deleted: Set<string>): Prediction {
  const expected = { ...known.expected, ...writable(facts, facts.replaceFields, body) };
  switch (facts.name) {
    case 'policies':
      return { expected: { ...expected, version: Number(known.expected.version) + 1 } };
    case 'findings': {
      const from = String(known.expected.status);
      const to = String(body.status);
      if (from !== to && facts.transitions && !facts.transitions.allowed.get(from)?.has(to))
        return { refused: 409, rule: 'updateFinding.2', why: `${from} → ${to} is not an allowed transition` };
      if (typeof body.policy_id === 'string' && deleted.has(body.policy_id))
        return { refused: 400, rule: 'schema.FindingCreate.3', why: 'the finding names a policy the kit deleted' };
      // Entering resolved sets resolved_at (learned from the answer); staying keeps it; leaving clears it.
      const resolvedAt = to !== 'resolved' ? null : from === 'resolved' ? known.expected.resolved_at : undefined;
      const { resolved_at: _replaced, ...rest } = expected;
      return {
        expected: {
          ...rest,
          resolution: facts.fill('resolution', body.resolution ?? null),
          ...(resolvedAt === undefined ? {} : { resolved_at: resolvedAt }),
        },
      };
    }
    case 'webhooks': {
      const hasSecret = !('secret' in body) ? known.expected.has_secret : typeof body.secret === 'string';
      const reason = body.enabled === false ? known.expected.disabled_reason : null;
      return { expected: { ...expected, has_secret: hasSecret, disabled_reason: reason } };
    }
    default:
      return { expected };
  }
}

const FIELD_RULES: Record<string, [create: RuleId, replace: RuleId]> = {
  'policies.version': ['createPolicy.2', 'updatePolicy.2'],
  'policies.compliance_status': ['createPolicy.2', 'createPolicy.2'],
  'findings.status': ['schema.FindingCreate.2', 'updateFinding.1'],
  'findings.resolved_at': ['schema.Finding.3', 'schema.Finding.3'],
  'findings.resolution': ['schema.Finding.2', 'schema.Finding.2'],
  'webhooks.has_secret': ['createWebhook.2', 'schema.WebhookUpdate.2'],
};
const ANSWER_RULES: Record<string, [create: RuleId, replace: RuleId]> = {
  policies: ['createPolicy.3', 'updatePolicy.1'],
  findings: ['createFinding.3', 'updateFinding.7'],
  webhooks: ['createWebhook.4', 'updateWebhook.1'],
};

/** The rule a wrong field of a create or replace answer breaks. */
export function ruleOfField(resource: string, field: string, replace: boolean): RuleId {
  const rules = FIELD_RULES[`${resource}.${field}`] ??
    ANSWER_RULES[resource] ?? ['idempotency-and-concurrency.4', 'idempotency-and-concurrency.4'];
  return rules[replace ? 1 : 0];
}
