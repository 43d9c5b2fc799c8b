// The faults model-sequences must catch: faults nobody wrote a check for (weak validators, replays,
// partial problems, quota arithmetic, clocks, targeted and disabled deliveries), and faults
// generated per rule family rather than picked by hand: for every field the document fixes in each
// resource's create and replace answers, a fault that answers it otherwise (a valid value, so only
// the model can tell). Each must fail model-sequences naming its rule.
import { loadDocument } from 'secmon-api/src/document';
import { ruleOfField } from '../src/kit/model/representation.ts';
import type { RuleId } from '../src/kit/rules/catalogue.ts';
import { buildModel, schemaAt } from '../src/kit/spec.ts';
import { all, answer, field, header, requestBody, requestHeader, status } from './fault-dsl.ts';
import type { Fault } from './fault-proxy.ts';
import type { RuleProof } from './prove.ts';

const TWO_HOURS = 2 * 60 * 60 * 1000;
const shifted = (value: unknown) => (typeof value === 'string' ? new Date(Date.parse(value) + TWO_HOURS).toISOString() : value);
/** Local time of a UTC+2 server written with `Z`. */
function localTimes(json: Record<string, unknown>): void {
  for (const item of Array.isArray(json.data) ? (json.data as Record<string, unknown>[]) : [json])
    for (const name of ['created_at', 'updated_at']) if (name in item) item[name] = shifted(item[name]);
}

/**
 * An implementation that keeps delivering to webhooks its clients disabled, while saying they are
 * disabled (and refusing, as it should, to raise a test event for one).
 */
function ignoresDisabling(): Fault {
  const disabled = new Set<string>();
  const rewrite = requestBody({ path: /^\/v1\/webhooks/ }, (json) => {
    if (json.enabled === false) json.enabled = true;
  });
  const shown = field({ path: /^\/v1\/webhooks/ }, (json, request) => {
    const asked = request.body.length > 0 ? (JSON.parse(request.body.toString('utf8')) as { enabled?: unknown }).enabled : undefined;
    if (typeof json.id === 'string' && asked === false) disabled.add(json.id);
    if (typeof json.id === 'string' && asked === true) disabled.delete(json.id);
    for (const item of Array.isArray(json.data) ? (json.data as Record<string, unknown>[]) : [json])
      if (disabled.has(String(item.id))) item.enabled = false;
  });
  const refusesRaise = answer({ method: 'POST', path: /^\/_simulator\/events/ }, (request, response) => {
    if (request.body.length === 0) return undefined;
    const target = (JSON.parse(request.body.toString('utf8')) as { webhook_id?: unknown }).webhook_id;
    return disabled.has(String(target)) ? { ...response, status: 400 } : undefined;
  });
  return all(rewrite, shown, refusesRaise);
}

const NAMED: Record<string, { fault: Fault; rule: RuleId }> = {
  'If-Match compared weakly (a W/ tag accepted)': {
    fault: requestHeader('if-match', (value) => value.replace(/^W\//, '')),
    rule: 'idempotency-and-concurrency.3',
  },
  'an Idempotency-Key replay answers the resource as it is now': {
    fault: answer({}, async (request, response, upstream) => {
      const location = response.headers.location;
      if (response.headers['idempotent-replayed'] !== 'true' || !location) return undefined;
      const now = await upstream('GET', new URL(location, 'http://x').pathname, { authorization: request.headers.authorization ?? '' });
      return now.status === 200 ? { ...response, body: now.body } : undefined;
    }),
    rule: 'idempotency-and-concurrency.1',
  },
  'a validation problem names only the first invalid part': {
    fault: field({ status: 400 }, (json) => {
      if (Array.isArray(json.errors)) json.errors = json.errors.slice(0, 1);
    }),
    rule: 'errors.2',
  },
  'RateLimit says the same remaining count every time': {
    fault: header({}, 'ratelimit', (value) => value?.replace(/r=\d+/, 'r=999')),
    rule: 'rate-limits.2',
  },
  'timestamps in local time (UTC+2) written with Z': {
    fault: field({}, localTimes),
    rule: 'limits.3',
  },
  'a targeted test event is sent to every subscribed webhook': {
    fault: requestBody({ method: 'POST', path: /^\/_simulator\/events/ }, (json) => {
      delete json.webhook_id;
    }),
    rule: 'test-support-not-part-of-the-v1-contract.4',
  },
  'a targeted raise for a webhook that is disabled or not subscribed is accepted': {
    fault: status({ method: 'POST', path: /^\/_simulator\/events/, status: 400 }, 202),
    rule: 'test-support-not-part-of-the-v1-contract.4',
  },
  'a raised event ignores the data overrides it was given': {
    fault: requestBody({ method: 'POST', path: /^\/_simulator\/events/ }, (json) => {
      delete json.data;
    }),
    rule: 'test-support-not-part-of-the-v1-contract.3',
  },
  'events are still sent to a webhook disabled by its owner': { fault: ignoresDisabling(), rule: 'webhooks.2' },
};

/** The subject model-sequences is filed under: its first operation. */
const SEQUENCES = 'createPolicy (POST /v1/policies)';
const proof = (name: string, fault: Fault, rule: RuleId): RuleProof => ({
  name,
  fault,
  rule,
  check: 'model-sequences',
  subject: SEQUENCES,
});

/** What the target chooses (ids, times) or changes on its own (the last delivery): no fault of the model's to prove. */
const CHOSEN = new Set(['id', 'created_at', 'updated_at', 'last_delivery', 'first_seen_at', 'last_seen_at', 'resolved_at', 'policy_id']);
const ENUMS: Record<string, string[]> = {
  severity: ['info', 'low', 'medium', 'high', 'critical'],
  status: ['open', 'in_progress'],
  compliance_status: ['compliant', 'non_compliant'],
};

/** Another valid value for a field, or undefined when there is no obvious one. */
function otherValue(name: string, value: unknown): unknown {
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'string') {
    const options = ENUMS[name];
    if (options) return options.find((option) => option !== value);
    if (name === 'url') return `${value}/moved`;
    if (name === 'device_id') return value.replace(/.$/, (last) => (last === 'a' ? 'b' : 'a'));
    return `${value} (changed)`;
  }
  if (value === null)
    return { rule: { language: 'rego', source: 'package kit' }, resolution: { reason: 'fixed', comment: '' }, disabled_reason: 'failing' }[
      name
    ];
  if (Array.isArray(value)) {
    if (name === 'frameworks') return value.length > 0 ? [] : [{ framework: 'cis', control: '1.1' }];
    if (name === 'events')
      return value.length > 1 ? value.slice(1) : [value[0] === 'finding.created' ? 'finding.resolved' : 'finding.created'];
  }
  if (name === 'rule' && typeof value === 'object') return null;
  return undefined;
}

/** Every proof of model-sequences: the faults named above, then the generated ones. */
export function modelProofs(): RuleProof[] {
  return [...Object.entries(NAMED).map(([name, { fault, rule }]) => proof(name, fault, rule)), ...generatedProofs()];
}

function generatedProofs(): RuleProof[] {
  const model = buildModel(loadDocument());
  const proofs: RuleProof[] = [];
  for (const resource of model.resources) {
    const pointer = resource.read?.responses.get('200')?.content.get('application/json');
    if (!pointer || !resource.create || !resource.update) continue;
    const fields = ((schemaAt(model.doc, pointer).required ?? []) as string[]).filter((name) => !CHOSEN.has(name));
    for (const [method, status, replace] of [
      ['POST', 201, false],
      ['PUT', 200, true],
    ] as const) {
      const path = replace ? new RegExp(`^${resource.collectionPath}/[^/?]+$`) : new RegExp(`^${resource.collectionPath}$`);
      for (const name of fields) {
        proofs.push(
          proof(
            `${method} ${resource.collectionPath} answers another ${name}`,
            field({ method, path, status }, (json) => {
              const other = otherValue(name, json[name]);
              if (other !== undefined) json[name] = other;
            }),
            ruleOfField(resource.name, name, replace),
          ),
        );
      }
    }
  }
  return proofs;
}
