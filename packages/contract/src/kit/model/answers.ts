// The model's verdict on each answer to a create, read, replace or delete of the kit's own
// resources, and what the model learns from it. Every function returns the differences from
// what the document says (empty: conforming) and updates the state as the target now is.

import type { RuleId } from '../rules/catalogue.ts';
import { findingChanged } from './causes.ts';
import { stampDifference } from './clock.ts';
import { ifMatchPasses, ifNoneMatchStatuses, learnTag } from './etags.ts';
import type { Json } from './facts.ts';
import { type Prediction, predictCreate, predictReplace, ruleOfField } from './representation.ts';
import { type Difference, fieldDifferences, type Known, type ModelState } from './state.ts';

export interface Answer {
  status: number;
  header(name: string): string | null;
  json: unknown;
  /** Kit clock (ms) when the request was sent and when the answer arrived. */
  sentAt: number;
  receivedAt: number;
}

const statusDifference = (rule: RuleId, wanted: number[], answer: Answer, why: string): Difference[] =>
  wanted.includes(answer.status) ? [] : [{ rule, message: `expected ${wanted.join(' or ')} (${why}), got ${answer.status}` }];

function stamps(fields: string[], json: Json, answer: Answer): Difference[] {
  return fields.flatMap((field) => stampDifference(field, json[field], answer.sentAt, answer.receivedAt) ?? []);
}

/** Compares a 2xx representation with what the model expects, and learns its tag. */
function judgeRepresentation(known: Known, answer: Answer, replace: boolean): Difference[] {
  const json = answer.json as Json;
  const wrong = fieldDifferences(known.expected, json);
  const out: Difference[] = wrong.map((line) => ({
    rule: ruleOfField(known.resource, line.slice(0, line.indexOf(':')), replace),
    message: `${known.resource} ${known.id}: ${line}`,
  }));
  return [...out, ...learnTag(known, json, answer.header('etag'))];
}

export function judgeCreate(state: ModelState, resource: string, body: Json, answer: Answer): Difference[] {
  const facts = state.facts.get(resource)!;
  const prediction: Prediction = predictCreate(facts, body, state.deleted);
  if ('refused' in prediction) return statusDifference(prediction.rule, [prediction.refused], answer, prediction.why);
  const wrong = statusDifference(ruleOfField(resource, '', false), [201], answer, `a valid new ${resource}`);
  const json = answer.json as Json | undefined;
  if (wrong.length > 0 || typeof json?.id !== 'string') return wrong;
  const expected: Json = { ...prediction.expected, created_at: json.created_at };
  const timed = ['created_at', 'updated_at', ...['first_seen_at', 'last_seen_at'].filter((f) => f in json && !(f in body))];
  const known: Known = { resource, id: json.id, expected, oldTags: [], secrets: [], unsignedSometime: typeof body.secret !== 'string' };
  if (typeof body.secret === 'string') known.secrets.push(body.secret);
  state.known.set(json.id, known);
  if (resource === 'findings') findingChanged(state, json.id, undefined, expected);
  return [...stamps(timed, json, answer), ...judgeRepresentation(known, answer, false)];
}

export function judgeRead(state: ModelState, id: string, answer: Answer, ifNoneMatch?: string): Difference[] {
  const known = state.known.get(id);
  if (!known) return state.deleted.has(id) ? statusDifference('deletePolicy.1', [404], answer, 'the kit deleted it') : [];
  const allowed = ifNoneMatch ? ifNoneMatchStatuses(known, ifNoneMatch) : [200];
  if (!allowed) return [];
  const wrong = statusDifference('idempotency-and-concurrency.3', allowed, answer, `If-None-Match: ${ifNoneMatch ?? '(none)'}`);
  if (wrong.length > 0 || answer.status === 304) return wrong;
  return judgeRepresentation(known, answer, false);
}

export function judgeReplace(state: ModelState, id: string, body: Json, answer: Answer, ifMatch?: string): Difference[] {
  const known = state.known.get(id);
  if (!known) return [];
  if (ifMatch !== undefined) {
    const passes = ifMatchPasses(known, ifMatch);
    if (passes === undefined) return [];
    if (!passes) return statusDifference('idempotency-and-concurrency.3', [412], answer, `If-Match: ${ifMatch} is not the current ETag`);
  }
  const facts = state.facts.get(known.resource)!;
  const prediction = predictReplace(facts, known, body, state.deleted);
  if ('refused' in prediction) return statusDifference(prediction.rule, [prediction.refused], answer, prediction.why);
  const wrong = statusDifference(ruleOfField(known.resource, '', true), [200], answer, 'a valid replacement');
  if (wrong.length > 0) return wrong;
  const json = answer.json as Json;
  const before = known.expected;
  known.expected = { ...prediction.expected };
  const entered = known.resource === 'findings' && json.status === 'resolved' && before.status !== 'resolved';
  if (entered) known.expected.resolved_at = json.resolved_at;
  if (known.resource === 'webhooks') rememberSecret(known, body);
  if (known.resource === 'findings') findingChanged(state, id, before, known.expected);
  return [...stamps(entered ? ['updated_at', 'resolved_at'] : ['updated_at'], json, answer), ...judgeRepresentation(known, answer, true)];
}

function rememberSecret(known: Known, body: Json): void {
  if (typeof body.secret === 'string') known.secrets.push(body.secret);
  if (body.secret === null) known.unsignedSometime = true;
}

export function judgeDelete(state: ModelState, id: string, answer: Answer, ifMatch?: string): Difference[] {
  const known = state.known.get(id);
  if (!known) return state.deleted.has(id) ? statusDifference('deletePolicy.1', [404], answer, 'the kit deleted it already') : [];
  if (ifMatch !== undefined) {
    const passes = ifMatchPasses(known, ifMatch);
    if (passes === undefined) return [];
    if (!passes) return statusDifference('idempotency-and-concurrency.3', [412], answer, `If-Match: ${ifMatch} is not the current ETag`);
  }
  if (known.resource === 'policies' && known.expected.compliance_status === 'non_compliant')
    return statusDifference('deletePolicy.2', [409], answer, 'an open finding of the kit references the policy');
  const wrong = statusDifference('deletePolicy.1', [204], answer, `deleting a ${known.resource.replace(/s$/, '')}`);
  if (wrong.length > 0) return wrong;
  state.known.delete(id);
  state.deleted.add(id);
  if (known.resource === 'findings') findingChanged(state, id, known.expected, undefined);
  if (known.resource === 'policies') releaseReferences(state, id);
  return [];
}

/** Deleting a policy sets the policy_id of the (resolved or suppressed) findings that referenced it to null. */
function releaseReferences(state: ModelState, policyId: string): void {
  for (const finding of state.known.values()) {
    if (finding.resource !== 'findings' || finding.expected.policy_id !== policyId) continue;
    finding.expected = { ...finding.expected, policy_id: null };
    if (finding.etag) finding.oldTags.push(finding.etag);
    delete finding.etag;
  }
}
