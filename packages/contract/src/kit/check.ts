// What a check is, as data: its name, the rules of the catalogue it judges, what it needs of the
// target and the run, what it costs, and how the document gives its instances (one per operation,
// path, resource or webhook it covers, or a single one). The registry lists every definition; the
// plan, the coverage table, the time budget and the rule coverage all read them from there.
import type { KitContext, Profile } from './context.ts';
import type { Check } from './failure.ts';
import type { RuleId } from './rules/catalogue.ts';
import type { ContractModel } from './spec.ts';

/** `gate` on a skip: why it fails the gate anyway (nobody declared it out of scope), in one line. */
export type CheckOutcome = 'passed' | { skipped: string; gate?: string } | { note: string } | void;

/** A planned check's work; `cases` is how many generated cases and repeats it may use (the time budget's choice). */
export type CheckRun = (ctx: KitContext, cases: number) => Promise<CheckOutcome>;

export interface PlanOptions {
  profile: Profile;
  hasReadKey: boolean;
  /** Why the 429 probe is not run in this suite (for example: another test runs it on a low-quota target). */
  skipRateProbe?: string;
  /** Why the event checks are not run (the target cannot reach the kit's receiver). */
  skipEvents?: string;
  /** The origin the target allows for browsers (the CORS check); without it a localhost origin is tried. */
  corsOrigin?: string;
  /** Why the first retry's wait and a Retry-After are not judged (a target with a compressed retry schedule). */
  skipRetryTiming?: string;
}

/** What a check cannot run without; a run that lacks it plans the check as skipped, saying which. */
export interface Needs {
  /** A target that keeps state (the stateful profile). */
  state?: true;
  /** A key with only the read scope (`--read-key`). */
  readKey?: true;
  /** A target that sends events to the kit's receiver (not `--events skip`). */
  events?: true;
}

/**
 * What a check costs on the API key's quota before it has been measured (`cost-profile.ts` holds
 * the measured costs): requests at a fixed count plus some per generated case, or `quota`: the
 * key's whole quota plus one (the 429 probe).
 */
export type Cost = { fixed: number; perCase: number } | 'quota';

/**
 * Requests a check that costs the whole quota has in flight at once: it uses a window up in few round
 * trips. Against `npm start` (10,000 a minute) 24 took the probe from about 6.8 s to 5.8 s against 8.
 */
export const PROBE_WAVE = 24;

/** One planned run of a check: the operations or webhooks it covers (filed under the first); `check` is its handle, to fail with. */
export interface Instance<R extends RuleId = RuleId> {
  subjects: string[];
  run: (ctx: KitContext, check: Check<R>, cases: number) => Promise<CheckOutcome>;
  /** Started before the first check of the run, for a check that must wait on the target, so the wait overlaps the others. */
  prepare?: (ctx: KitContext, check: Check<R>) => void;
  /** Why this instance is not run, beyond what the check's `needs` say. */
  skip?: string;
}

export interface CheckDefinition<Name extends string = string, R extends RuleId = RuleId> {
  name: Name;
  /** The heading of its column in the coverage table. */
  column: string;
  /** The rules of the catalogue it judges: the sentences whose coverage it gives. */
  rules: readonly R[];
  needs: Needs;
  /** It verifies a success response or a delivery (what the coverage gate asks of every operation and webhook). */
  exercisesSuccess: boolean;
  cost: Cost;
  /** Its instances for a document (none when the document lacks what it judges). */
  instances(model: ContractModel, options: PlanOptions): Instance<R>[];
}

/**
 * A definition with its name and rules kept as literal types: the registry derives the union of
 * names, and the handle its instances fail with accepts only the rules listed here.
 */
export function defineCheck<const Name extends string, const R extends RuleId>(
  definition: CheckDefinition<Name, R>,
): CheckDefinition<Name, R> {
  return definition;
}

const STATELESS = 'stateless profile: needs a target that keeps state';
const NO_EVENTS = 'stateless profile: the target keeps no subscriptions and sends no events';

/** Why a run cannot give a check what it needs; undefined when it can. */
export function unmetNeed(needs: Needs, options: PlanOptions): string | undefined {
  if (needs.events && options.profile !== 'stateful') return NO_EVENTS;
  if (needs.state && options.profile !== 'stateful') return STATELESS;
  if (needs.readKey && !options.hasReadKey) return 'no --read-key given';
  if (needs.events) return options.skipEvents;
  return undefined;
}
