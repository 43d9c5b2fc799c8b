// The problem each refusal of the core is answered with.
import type { DomainError, Outcome } from '../../packages/core/src/index.ts';
import { invalid, ProblemError } from './problems.ts';

export function problemOf(error: DomainError): ProblemError {
  return error.kind === 'validation' ? invalid(error.pointer, error.message) : new ProblemError(error.kind, error.detail);
}

/** The outcome's value; throws the problem of a refusal. */
export function settled<T>(outcome: Outcome<T>): T {
  if ('error' in outcome) throw problemOf(outcome.error);
  return outcome.value;
}
