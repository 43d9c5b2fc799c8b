// What the document's rule checks share: they judge the three resources it describes in words
// (policies, findings, webhooks) and the events their changes cause, so a document without all
// three gets none of them.
import { isCrud } from '../checks/stateful.ts';
import type { ContractModel } from '../spec.ts';

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
