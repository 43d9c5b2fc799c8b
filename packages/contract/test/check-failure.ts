// A check's failure as a test needs it: raised through the handle the check's instances are given,
// so a test builds the same record the kit does, and a rule its check's definition does not list
// is a type error here as it is in the check.
import { createSchemaValidator, type SchemaValidator } from 'secmon-api/src/schema-validator';
import type { CheckDefinition } from '../src/kit/check.ts';
import { type Check, checkHandle } from '../src/kit/failure.ts';
import { type CheckName, definitionOf, type REGISTRY } from '../src/kit/registry.ts';
import { ContractViolation } from '../src/kit/verify.ts';

/** The rules the definition of `C` lists (every rule when `C` is any check). */
type RulesOf<C extends CheckName> = Extract<(typeof REGISTRY)[number], { name: C }> extends CheckDefinition<C, infer R> ? R : never;

let validator: SchemaValidator | undefined;

/** What `failing` throws with the handle of check `name`: the ContractViolation the runner would record. */
export function failureOf<C extends CheckName>(name: C, failing: (check: Check<RulesOf<C>>) => void): ContractViolation {
  const check = checkHandle(definitionOf(name) as CheckDefinition<C, RulesOf<C>>, (validator ??= createSchemaValidator()));
  try {
    failing(check);
  } catch (error) {
    if (error instanceof ContractViolation) return error;
    throw error;
  }
  throw new Error(`check "${name}" did not fail`);
}
