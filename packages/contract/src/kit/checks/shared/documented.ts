// What the document's rule checks share: they judge the three resources it describes in words
// (policies, findings, webhooks) and the events their changes cause, so a document without all
// three gets none of them.
import type { Instance } from '../../check.ts';
import type { RuleId } from '../../rules/catalogue.ts';
import type { ContractModel } from '../../spec.ts';
import { isCrud } from './stateful.ts';

/** The three resources by name, each with every CRUD operation; undefined when one is missing. */
export function documentedResources(model: ContractModel) {
  const crud = (name: string) => model.resources.filter(isCrud).find((r) => r.name === name);
  const [policies, findings, webhooks] = [crud('policies'), crud('findings'), crud('webhooks')];
  if (!policies || !findings || !webhooks) return undefined;
  const hook = (event: string) => model.webhooks.find((w) => w.event === event)?.label;
  return { policies, findings, webhooks, hook };
}

/** The labels that exist, in order. */
export const labels = (...items: (string | undefined)[]) => items.filter((item): item is string => item !== undefined);

type Documented = NonNullable<ReturnType<typeof documentedResources>>;

/**
 * The one instance of a rule check, or none when the document lacks one of the three resources;
 * generic in the check's rules, so the definition keeps them and its handle accepts no other.
 */
export function withResources<R extends RuleId>(model: ContractModel, instance: (found: Documented) => Instance<R>): Instance<R>[] {
  const found = documentedResources(model);
  return found ? [instance(found)] : [];
}
