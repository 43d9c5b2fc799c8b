// Every check of the kit, in the order the plan runs them and the coverage table shows them. A
// check's name, the rules it judges, its needs and its cost are read from here; the names are a
// type, so a misspelt one does not compile wherever a check is named (catalogue, cost profile,
// known limits in code, tests).
import type { CheckDefinition } from './check.ts';
import { availableAfterCreateCheck } from './checks/available-after-create.ts';
import { boundaryInputsCheck } from './checks/boundary-inputs.ts';
import { circuitBreakerCheck } from './checks/circuit-breaker.ts';
import { complianceCheck } from './checks/compliance.ts';
import { corsCheck } from './checks/cors.ts';
import { credentialSpellingsCheck } from './checks/credential-spellings.ts';
import { deliveryCheckDefinition } from './checks/delivery.ts';
import { deliveryAttributionCheck } from './checks/delivery-attribution.ts';
import { deliveryRetryCheck } from './checks/delivery-retry.ts';
import { deliverySemanticsCheck } from './checks/delivery-semantics.ts';
import { endpointGoneCheck } from './checks/endpoint-gone.ts';
import { errorAnswersCheck } from './checks/error-answers.ts';
import { failedAuthCountingCheck } from './checks/failed-auth-counting.ts';
import { findingLifecycleCheck } from './checks/finding-lifecycle.ts';
import { idempotencyCheck } from './checks/idempotency.ts';
import { invalidBodyCheck } from './checks/invalid-body.ts';
import { invalidParametersCheck } from './checks/invalid-parameters.ts';
import { lifecycleCheck } from './checks/lifecycle.ts';
import { modelSequencesCheck } from './checks/model-sequences.ts';
import { noCredentialsCheck } from './checks/no-credentials-401.ts';
import { paginationCheck } from './checks/pagination.ts';
import { paginationRulesCheck } from './checks/pagination-rules.ts';
import { policyInUseCheck } from './checks/policy-in-use.ts';
import { problemCatalogueCheck } from './checks/problem-catalogue.ts';
import { rateLimitCheck } from './checks/rate-limit-429.ts';
import { rateLimitClockCheck } from './checks/rate-limit-clock.ts';
import { readOnlyKeyCheck } from './checks/read-only-key-403.ts';
import { readScopeCheck } from './checks/read-scope.ts';
import { receiverAnswersCheck } from './checks/receiver-answers.ts';
import { referencesCheck } from './checks/references.ts';
import { replaceSemanticsCheck } from './checks/replace-semantics.ts';
import { responseAuditCheck } from './checks/response-audit.ts';
import { secretRotationCheck } from './checks/secret-rotation.ts';
import { secretsCheck } from './checks/secrets.ts';
import { slotSharingCheck } from './checks/slot-sharing.ts';
import { stateReadsCheck } from './checks/state-reads.ts';
import { successResponseCheck } from './checks/success-response.ts';
import { transitionsCheck } from './checks/transitions.ts';
import { unknownKeyCheck } from './checks/unknown-key-401.ts';
import { unsupportedMethodCheck } from './checks/unsupported-method.ts';
import { useAfterDeleteCheck } from './checks/use-after-delete.ts';
import { validInputCheck } from './checks/valid-input.ts';
import { webhookAddressesCheck } from './checks/webhook-addresses.ts';

export const REGISTRY = [
  successResponseCheck,
  validInputCheck,
  invalidBodyCheck,
  invalidParametersCheck,
  noCredentialsCheck,
  unknownKeyCheck,
  credentialSpellingsCheck,
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
  corsCheck,
  deliverySemanticsCheck,
  deliveryRetryCheck,
  receiverAnswersCheck,
  circuitBreakerCheck,
  endpointGoneCheck,
  webhookAddressesCheck,
  secretRotationCheck,
  modelSequencesCheck,
  slotSharingCheck,
  deliveryAttributionCheck,
  stateReadsCheck,
  // After the event checks: the request-timeout probe it waits for (10 s, started with the run) has
  // then run out beside them instead of holding the run up.
  problemCatalogueCheck,
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
