// Faults generated per rule family rather than picked by hand: for every field the document fixes
// in each resource's create and replace answers, a fault that answers it otherwise (a valid value,
// so only the model can tell). Each must fail model-sequences naming the field's rule.
import { loadDocument } from '../../lib/document.ts';
import { ruleOfField } from '../contract/kit/model/representation.ts';
import { buildModel, schemaAt } from '../contract/kit/spec.ts';
import { field } from './fault-dsl.ts';
import type { Fault } from './fault-proxy.ts';

export interface Proof {
  name: string;
  fault: Fault;
  rule: string;
}

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

export function generatedProofs(): Proof[] {
  const model = buildModel(loadDocument());
  const proofs: Proof[] = [];
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
        proofs.push({
          name: `${method} ${resource.collectionPath} answers another ${name}`,
          fault: field({ method, path, status }, (json) => {
            const other = otherValue(name, json[name]);
            if (other !== undefined) json[name] = other;
          }),
          rule: ruleOfField(resource.name, name, replace),
        });
      }
    }
  }
  return proofs;
}
