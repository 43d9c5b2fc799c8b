// The problem each domain refusal is answered with.
import type { DomainError } from '../domain/errors.ts';
import { invalid, ProblemError } from './problems.ts';

export function problemOf(error: DomainError): ProblemError {
  return error.kind === 'validation' ? invalid(error.pointer, error.message) : new ProblemError(error.kind, error.detail);
}

/** Throws the problem of a refusal; returns quietly when there is none. */
export function refuse(error: DomainError | undefined): void {
  if (error) throw problemOf(error);
}
