// What a check's run comes to, and the limits a target declares: shared by the runner that
// produces results and the reports (coverage, JUnit, rule traces) that read them.
import type { CheckName } from './registry.ts';
import type { Reproduction } from './repro.ts';
import type { Violation } from './violation.ts';

export type Outcome = 'passed' | 'failed' | 'skipped' | 'known-limit';

/** `Name`: the kit's check names, or the case names of another runner (the receiver check). */
export interface CheckResult<Name extends string = CheckName> {
  id: string;
  check: Name;
  subjects: string[];
  exercisesSuccess: boolean;
  outcome: Outcome;
  /** Why it was skipped, or which known limit it hit. */
  reason?: string;
  /** The failure report (operation, check, request, what broke), rendered from `violations`. */
  error?: string;
  /** What a failed check (or one at a known limit) found, as data. */
  violations?: Violation[];
  /** The versions that introduced what a failure breaks (`new in 1.1.0: rule …`), when newer than the oldest. */
  newIn?: string;
  /** A failure's exchanges as a replayable script and .http file (see repro.ts). */
  reproduction?: Reproduction;
  /** Something a passed check noticed that is allowed but worth saying (a retried delivery). */
  note?: string;
  /**
   * Why this result fails the gate although nothing failed: an event the kit could not raise and
   * nobody declared out of scope, a 429 probe not run and not declared, a check an interruption stopped.
   */
  gate?: string;
  /** Time spent in the check, without the time it waited for the target's rate limit. */
  ms: number;
  /** Time the check waited for the target's rate limit (reported on its own). */
  waitedMs?: number;
  /** Requests the check sent. */
  requests?: number;
  /** Its measured cost for a time budget: requests on the API key's quota, plus a delete per resource it created. */
  quotaCost?: number;
}

/**
 * A check a target is known not to pass, declared by whoever runs the kit (for example the Prism
 * mock's limits). A matching failure is reported as a known limit instead of a failure; a check
 * declared for a named operation that passes is reported as failed, so stale entries get removed.
 */
export interface KnownLimit {
  check: CheckName;
  /** An operation or webhook label, or '*' for every one. */
  subject: string;
  reason: string;
}
