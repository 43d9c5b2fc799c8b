// Every check of the kit, in the order the plan runs them and the coverage table shows them. A
// check's name, the rules it judges, its needs and its cost are read from here; the names are a
// type, so a misspelt one does not compile wherever a check is named (catalogue, cost profile,
// known limits in code, tests).
import type { CheckDefinition } from './check.ts';
import { deliveryAttributionCheck } from './definitions/attribution.ts';
import {
  boundaryInputsCheck,
  errorAnswersCheck,
  failedAuthCountingCheck,
  rateLimitClockCheck,
  receiverAnswersCheck,
  stateReadsCheck,
} from './definitions/axes.ts';
import {
  deliveryCheckDefinition,
  deliveryRetryCheck,
  deliverySemanticsCheck,
  endpointGoneCheck,
  secretRotationCheck,
} from './definitions/events.ts';
import { complianceCheck, findingLifecycleCheck, policyInUseCheck, referencesCheck } from './definitions/findings.ts';
import { modelSequencesCheck } from './definitions/model.ts';
import { corsCheck, problemCatalogueCheck, rateLimitCheck, responseAuditCheck } from './definitions/problems.ts';
import {
  invalidBodyCheck,
  invalidParametersCheck,
  noCredentialsCheck,
  readOnlyKeyCheck,
  successResponseCheck,
  unknownKeyCheck,
  validInputCheck,
} from './definitions/requests.ts';
import {
  availableAfterCreateCheck,
  idempotencyCheck,
  lifecycleCheck,
  paginationCheck,
  transitionsCheck,
  unsupportedMethodCheck,
  useAfterDeleteCheck,
} from './definitions/resources.ts';
import { paginationRulesCheck, readScopeCheck, replaceSemanticsCheck, secretsCheck } from './definitions/writes.ts';

export const REGISTRY = [
  successResponseCheck,
  validInputCheck,
  invalidBodyCheck,
  invalidParametersCheck,
  noCredentialsCheck,
  unknownKeyCheck,
  readOnlyKeyCheck,
  unsupportedMethodCheck,
  availableAfterCreateCheck,
  lifecycleCheck,
  useAfterDeleteCheck,
  idempotencyCheck,
  paginationCheck,
  transitionsCheck,
  deliveryCheckDefinition,
  findingLifecycleCheck,
  referencesCheck,
  policyInUseCheck,
  complianceCheck,
  replaceSemanticsCheck,
  secretsCheck,
  readScopeCheck,
  paginationRulesCheck,
  boundaryInputsCheck,
  problemCatalogueCheck,
  corsCheck,
  deliverySemanticsCheck,
  deliveryRetryCheck,
  receiverAnswersCheck,
  endpointGoneCheck,
  secretRotationCheck,
  modelSequencesCheck,
  deliveryAttributionCheck,
  stateReadsCheck,
  errorAnswersCheck,
  responseAuditCheck,
  rateLimitCheck,
  rateLimitClockCheck,
  failedAuthCountingCheck,
] as const;

export type CheckName = (typeof REGISTRY)[number]['name'];

/** The registry with each definition's name widened to the union, to be used without knowing which it is. */
export const DEFINITIONS: readonly CheckDefinition<CheckName>[] = REGISTRY;

/** The check names, in table order. */
export const CHECK_NAMES: readonly CheckName[] = DEFINITIONS.map((definition) => definition.name);

export function definitionOf(name: CheckName): CheckDefinition<CheckName> {
  return DEFINITIONS.find((definition) => definition.name === name)!;
}

/** Whether a name from outside the code (a known-limits file) is a check of the kit. */
export function isCheckName(name: string): name is CheckName {
  return (CHECK_NAMES as readonly string[]).includes(name);
}

/** The checks that judge a rule of the catalogue. */
export function checksJudging(rule: string): CheckName[] {
  return DEFINITIONS.filter((definition) => definition.rules.some((id) => id === rule)).map((d) => d.name);
}
