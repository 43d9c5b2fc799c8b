// Proof that the kit bites: the reference server behind a proxy that breaks one thing at a time,
// and the kit must fail naming the right operation (or webhook) and check. Each fault runs only
// the checks that concern it, so the whole file stays a few seconds long. The command line and
// the reproductions it writes are proven against a broken implementation in faults-cli.test.ts.

import { loadDocument } from 'secmon-api/src/document';
import { afterAll, describe, expect, it } from 'vitest';
import type { KitOptions } from '../src/kit/context.ts';
import { coverage } from '../src/kit/coverage.ts';
import { planChecks } from '../src/kit/plan.ts';
import type { CheckName } from '../src/kit/registry.ts';
import { buildModel } from '../src/kit/spec.ts';
import type { Fault } from './fault-proxy.ts';
import { FAULTS } from './implementation-faults.ts';
import { failureUnder as failureOf, proveRules } from './prove.ts';
import { targetPool } from './reference-target.ts';
import { RULE_PROOFS } from './rule-faults.ts';
import { passedResults } from './suite.ts';

// The faults run side by side, two at a time, each on a reference server it holds alone.
const targets = targetPool(2);
afterAll(() => targets.close());

/** Runs one check of one operation or webhook through a faulty proxy. */
const failureUnder = (fault: Fault, subject: string, check: CheckName, options: Partial<KitOptions> = {}) =>
  targets.use((reference) => failureOf(reference, fault, subject, check, options));

describe.concurrent('the kit fails on a broken implementation', () => {
  for (const [name, fault, subject, check, says, reportedOn = subject] of FAULTS) {
    it(`${name}: ${subject.split(' ')[0]} fails ${check}`, async () => {
      const error = await failureUnder(fault, subject, check);
      expect(error).toContain(`${reportedOn} — check "${check}" failed`);
      for (const text of says) {
        if (typeof text === 'string') expect(error).toContain(text);
        else expect(error).toMatch(text);
      }
    });
  }
});

// Faults that break a rule the document states only in words (rule-faults.ts); each is caught by
// the check that judges that rule, and the report names the rule (id and sentence).
proveRules('the kit fails on an implementation that breaks a rule the document states in words', RULE_PROOFS);

describe('the coverage gate', () => {
  it('fails for an operation added to the document that the kit derives no checks for', () => {
    const doc = loadDocument();
    doc.paths!['/v1/policies/{id}/evaluate'] = {
      post: { operationId: 'evaluatePolicy', responses: { '202': { description: 'Evaluation queued.' } } },
    };
    const model = buildModel(doc);
    const plan = planChecks(model, { profile: 'stateful', hasReadKey: true });
    const allPassed = passedResults(plan);
    const report = coverage(model, allPassed);
    expect(report.passed).toBe(false);
    expect(report.rows.filter((row) => row.gap).map((row) => [row.subject, row.gap])).toEqual([
      ['evaluatePolicy (POST /v1/policies/{id}/evaluate)', 'no check could be derived for it from the document'],
    ]);
  });

  it('passes for the document as it is when every derived check passes', () => {
    const model = buildModel(loadDocument());
    const plan = planChecks(model, { profile: 'stateful', hasReadKey: true });
    const allPassed = passedResults(plan);
    expect(coverage(model, allPassed).passed).toBe(true);
  });
});
