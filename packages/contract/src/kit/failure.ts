// How a check fails: through its handle, which carries the check's name and accepts only the rules
// its definition lists (a rule found in the document at run time is marked as such by its type).
// A failure names what was observed against what the document asks; the ContractViolation it
// throws is the record the console, JUnit and reproductions render.
import type { SchemaValidator } from 'secmon-api/src/schema-validator';
import type { Exchange } from './http.ts';
import type { RuleId } from './rules/catalogue.ts';
import type { StatedRule } from './rules/stated.ts';
import type { OperationModel } from './spec.ts';
import { type Aspect, ContractViolation, conformance, type Discrepancy, type JudgedExchange, naming } from './verify.ts';

/** A rule the check's definition lists, or one the document states where the failure is. */
export type Judged<R extends RuleId> = R | StatedRule;

/** One thing seen broken: the rules it breaks (one or several, each named), what was observed, and what the document asks. */
export interface Finding<R extends RuleId> {
  rule?: Judged<R> | readonly Judged<R>[];
  observed: string;
  /** The offending values, one per line after the observation. */
  details?: readonly string[];
  expected?: string;
  /** Where in the document what it breaks is stated, when it is not a rule. */
  pointer?: string;
  /** The field, parameter, header or transition involved, when the observation alone does not say it. */
  subject?: string;
  /** What kind of judgement it is; a stated expectation unless the finding is about a header or a body's schema. */
  aspect?: Aspect;
}

/** Where a failure is filed (an operation or a webhook) and the exchange judged last. */
export interface Place {
  at: { label: string } | string;
  exchange?: JudgedExchange | undefined;
}

/** The statuses an answer may have; `rules` are those another status breaks (each is named in the failure). */
export type Expected<R extends RuleId = RuleId> = ({ statuses: number[] } | { range: '2xx' | '4xx' }) & {
  rules?: readonly Judged<R>[];
};

/** Any check's handle, for what fails without naming a rule of its own (creating a resource, subscribing). */
export type AnyCheck = Check<never>;

export interface Check<R extends RuleId = RuleId> {
  readonly name: string;
  /** Throws the failure. */
  fail: (failure: Finding<R> & Place) => never;
  /** A finding as discrepancies (one per rule it breaks), to be thrown with others by `failAll`. */
  found: (finding: Finding<R>) => Discrepancy[];
  /** Throws every discrepancy found at one place. */
  failAll: (place: Place & { found: readonly Discrepancy[] }) => never;
  /** Throws when the answer breaks the document or has a status other than `expected`; `note` says what was sent. */
  conform: (op: OperationModel, exchange: Exchange, expected: Expected<R>, note?: string) => void;
}

const labelOf = (at: Place['at']) => (typeof at === 'string' ? at : at.label);

/**
 * A finding as discrepancies, one per rule it breaks (as is when it names none): what a judgement
 * several checks share returns, for the check that throws them to name its own.
 */
export function found<R extends RuleId>({
  rule = [],
  observed,
  details = [],
  aspect = 'expectation',
  ...about
}: Finding<R>): Discrepancy[] {
  const rules: readonly RuleId[] = typeof rule === 'string' ? [rule] : rule;
  return naming({ aspect, message: observed, details: [...details], ...about }, rules);
}

/** The handle of a check (its name and the rules it judges), whose answers are read with `validator`. */
export function checkHandle<R extends RuleId>({ name }: { name: string; rules: readonly R[] }, validator: SchemaValidator): Check<R> {
  const failAll = ({ at, found: discrepancies, exchange }: Place & { found: readonly Discrepancy[] }): never => {
    throw new ContractViolation(labelOf(at), name, [...discrepancies], exchange);
  };
  return {
    name,
    found,
    failAll,
    fail: ({ at, exchange, ...finding }) => failAll({ at, exchange, found: found(finding) }),
    conform(op, exchange, expected, note) {
      const discrepancies = conformance(validator, op, exchange);
      const ok =
        'statuses' in expected
          ? expected.statuses.includes(exchange.status)
          : Math.floor(exchange.status / 100) === Number(expected.range[0]);
      if (!ok) {
        const wanted = 'statuses' in expected ? expected.statuses.join(' or ') : expected.range;
        const observed = `expected ${wanted}${note ? ` (${note})` : ''}, got ${exchange.status}`;
        discrepancies.unshift(...found({ rule: expected.rules ?? [], observed }));
      }
      const problem = exchange.json as { status?: unknown } | undefined;
      if (exchange.status >= 400 && exchange.mediaType === 'application/problem+json' && problem?.status !== exchange.status) {
        discrepancies.push({
          aspect: 'response-schema',
          message: `the problem's status ${String(problem?.status)} differs from the HTTP status`,
          details: [],
        });
      }
      if (discrepancies.length > 0) failAll({ at: op, found: discrepancies, exchange });
    },
  };
}
