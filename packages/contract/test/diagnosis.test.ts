// A failure a team can act on in one read: the rule whose sentence the observation contradicts
// heads it (never a context rule it did not break), one fault is one report however many checks
// saw it, JUnit fails only the testcase of the operation that shows it, with the cause as its message.
import { loadDocument } from 'secmon-api/src/document';
import { describe, expect, it } from 'vitest';
import { found } from '../src/kit/failure.ts';
import { faultsOf } from '../src/kit/faults.ts';
import type { Exchange } from '../src/kit/http.ts';
import { junitReport } from '../src/kit/junit.ts';
import { planChecks } from '../src/kit/plan.ts';
import type { CheckName } from '../src/kit/registry.ts';
import { symptomOf, symptomTest } from '../src/kit/repro-judge.ts';
import type { CheckResult } from '../src/kit/results.ts';
import { headline } from '../src/kit/rules/headline.ts';
import { formatRuleSummary, ruleCoverage, traceFailure } from '../src/kit/rules/trace.ts';
import { buildModel } from '../src/kit/spec.ts';
import type { Discrepancy } from '../src/kit/verify.ts';
import { violationsOf } from '../src/kit/violation.ts';
import { failureOf } from './check-failure.ts';
import { passedResults } from './suite.ts';

const GET_POLICY = 'getPolicy (GET /v1/policies/{id})';
const LIST_FINDINGS = 'listFindings (GET /v1/findings)';
const SCHEMA = '#/paths/~1v1~1policies~1{id}/get/responses/200/content/application~1json/schema';

const answer = (url: string, json: unknown, status = 200): Exchange => ({
  request: { method: 'GET', url, headers: { Authorization: 'Bearer <read-key>' } },
  status,
  headers: new Headers(),
  mediaType: 'application/json',
  text: JSON.stringify(json),
  json,
});

const missingUpdatedAt: Discrepancy = {
  aspect: 'response-schema',
  message: `the 200 body breaks its schema (${SCHEMA})`,
  details: [`/ must have required property 'updated_at' (value: {"id":"pol_1"})`],
  pointer: SCHEMA,
};

function failed(subject: string, check: CheckName, operation: string, discrepancies: Discrepancy[], judged?: Exchange): CheckResult {
  const error = failureOf(check, (handle) => handle.failAll({ at: operation, found: discrepancies, exchange: judged }));
  const violations = violationsOf(check, error, judged ? [judged] : []);
  return {
    id: `${subject} › ${check}`,
    check,
    subjects: [subject],
    exercisesSuccess: true,
    outcome: 'failed',
    error: traceFailure(check, error.message, violations),
    violations,
    ms: 1,
  };
}

describe('the headline names the rule the observation contradicts', () => {
  it('a list ignoring `limit`: the `limit` sentence, not the general pagination rules or another operation’s', () => {
    const page = answer('http://t/v1/findings?limit=2', { data: Array(20).fill({}), next_cursor: null });
    const [violation, ...more] = failed(
      LIST_FINDINGS,
      'pagination',
      LIST_FINDINGS,
      found({ observed: 'page 1 has 20 items, over limit 2' }),
      page,
    ).violations!;
    expect(more).toEqual([]);
    expect(violation!.subject).toMatchObject({ operation: LIST_FINDINGS, what: 'limit' });
    expect(violation!.sentence).toContain('`limit`');
    expect(violation!.rule).not.toMatch(/^(pagination\.1|pagination\.3|listPolicies\.)/);
    expect(headline(violation!)).toMatch(
      /^rule [\w.]+: “`limit` is 1 to 100 \(default 20\)\.” — observed page 1 has 20 items, over limit 2/,
    );
  });

  it('an answer missing `updated_at`: the schema and the field, never authentication.1', () => {
    const { violations, error } = failed(GET_POLICY, 'success-response', GET_POLICY, [missingUpdatedAt]);
    expect(violations!.map((v) => v.rule)).toEqual([undefined]);
    expect(violations![0]!.subject).toEqual({ operation: GET_POLICY, what: 'updated_at', missing: 'updated_at' });
    expect(error!.split('\n')[0]).toBe(
      `${GET_POLICY} — check "success-response" failed (breaks the schema at ${SCHEMA}: \`updated_at\` is required)`,
    );
    expect(error).not.toContain('authentication.1');
    expect(error).toContain("/ must have required property 'updated_at' (value:");
    expect(error).not.toContain("'updated_at' 'updated_at'");
  });

  it('one observation naming several rules is one violation: the rule speaking of the subject first, the others as "also"', () => {
    const result = failed(
      GET_POLICY,
      'success-response',
      GET_POLICY,
      found({ rule: ['authentication.1', 'limits.3'], observed: 'updated_at is not RFC 3339' }),
    );
    expect(result.violations).toHaveLength(1);
    expect(result.violations![0]).toMatchObject({ rule: 'limits.3', also: ['authentication.1'] });
    expect(result.error!.split('\n')[0]).toMatch(/\(breaks rule limits\.3; also authentication\.1\)$/);
  });
});

describe('one report per fault', () => {
  const results = [
    failed('createPolicy (POST /v1/policies)', 'success-response', GET_POLICY, [missingUpdatedAt]),
    failed(GET_POLICY, 'success-response', GET_POLICY, [missingUpdatedAt]),
    failed('createPolicy (POST /v1/policies)', 'lifecycle', GET_POLICY, [
      missingUpdatedAt,
      { ...missingUpdatedAt, details: [`/ must have required property 'updated_at' (value: {"id":"pol_2"})`] },
    ]),
  ];

  it('the same missing field in the same operation’s answers, seen by three checks, is one fault reported under that operation', () => {
    const faults = faultsOf(results);
    expect(faults).toHaveLength(1);
    expect(faults[0]!.result.id).toBe(`${GET_POLICY} › success-response`);
    expect(faults[0]!.seen.map((s) => [s.check, s.count])).toEqual([
      ['success-response', 1],
      ['success-response', 1],
      ['lifecycle', 2],
    ]);
  });

  it('JUnit: one failing testcase, of that operation, its message the headline and its type the cause; the others say where it is', () => {
    const xml = junitReport('kit', results, 1);
    expect(xml).toMatch(/<testsuites [^>]*tests="3" failures="1"/);
    const failures = [...xml.matchAll(/<testcase classname="(\w+)" name="([\w-]+)"[^>]*>\s*<failure message="([^"]*)" type="([^"]*)"/g)];
    expect(failures.map((m) => [m[1], m[2], m[4]])).toEqual([['getPolicy', 'success-response', 'schema']]);
    expect(failures[0]![3]).toContain('`updated_at` is required');
    expect(xml).toMatch(
      /<testcase classname="createPolicy" name="lifecycle"[^>]*>\s*<skipped message="saw a fault of getPolicy, reported there: /,
    );
  });
});

describe('a replay judges the answer it gets', () => {
  const judge = (source: string, status: number, body: unknown) => new Function('status', 'body', source)(status, body) as boolean;

  it('a missing field is there while the answer lacks it, gone once the answer has it', () => {
    const [violation] = failed(GET_POLICY, 'success-response', GET_POLICY, [missingUpdatedAt]).violations!;
    const test = symptomTest(symptomOf(violation!, answer('http://t/v1/policies/pol_1', { id: 'pol_1' })));
    expect(judge(test, 200, { id: 'pol_2' })).toBe(true);
    expect(judge(test, 200, { id: 'pol_2', updated_at: '2026-01-01T00:00:00Z' })).toBe(false);
    expect(judge(test, 404, undefined)).toBe(false);
  });

  it('a page over its limit is there while `data` is longer than the limit asked', () => {
    const page = answer('http://t/v1/findings?limit=2', { data: Array(20).fill({}), next_cursor: null });
    const [violation] = failed(LIST_FINDINGS, 'pagination', LIST_FINDINGS, found({ observed: 'page 1 has 20 items, over limit 2' }), page)
      .violations!;
    const test = symptomTest(symptomOf(violation!, page));
    expect(judge(test, 200, { data: [1, 2, 3], next_cursor: null })).toBe(true);
    expect(judge(test, 200, { data: [1, 2], next_cursor: 'c' })).toBe(false);
  });
});

describe('observations that name each other’s rule are one fault', () => {
  it('a forbidden transition met by the transitions check and the problem check of the same operation', () => {
    const update = 'updateFinding (PUT /v1/findings/{id})';
    const results = [
      failed(
        update,
        'transitions',
        update,
        found({
          rule: ['updateFinding.2', 'schema.FindingStatus.7'],
          observed: 'expected 409 (resolved → in_progress is not allowed), got 200',
        }),
      ),
      failed(
        'listPolicies (GET /v1/policies)',
        'problem-catalogue',
        update,
        found({ rule: ['schema.FindingStatus.7'], observed: 'resolved → suppressed: expected 409, got 200' }),
      ),
    ];
    expect(results[0]!.violations![0]!.rule).toBe('updateFinding.2');
    const faults = faultsOf(results);
    expect(faults).toHaveLength(1);
    expect(faults[0]!.seen.map((s) => s.check)).toEqual(['transitions', 'problem-catalogue']);
  });
});

describe('forbidden transitions of one operation are one fault', () => {
  it('two checks meeting two different forbidden moves of updateFinding, under different rules', () => {
    const update = 'updateFinding (PUT /v1/findings/{id})';
    const faults = faultsOf([
      failed(
        update,
        'transitions',
        update,
        found({ rule: ['updateFinding.2'], observed: 'expected 409 (resolved → in_progress is not allowed), got 200' }),
      ),
      failed(
        'listPolicies (GET /v1/policies)',
        'problem-catalogue',
        update,
        found({
          rule: ['errors.13'],
          observed: 'resolved → suppressed: expected 409 with type https://secmon.dev/problems/invalid-transition, got 200',
        }),
      ),
    ]);
    expect(faults).toHaveLength(1);
    expect(faults[0]!.violation.rule).toBe('updateFinding.2');
    expect(faults[0]!.seen.map((s) => s.check)).toEqual(['transitions', 'problem-catalogue']);
  });
});

describe('deliveries come from one sender', () => {
  const created = 'findingCreated (webhook finding.created)';
  const resolved = 'findingResolved (webhook finding.resolved)';
  const wrongSignature = (hook: string) =>
    failed(
      hook,
      'delivery',
      hook,
      found({
        rule: ['delivery-headers.1'],
        observed: "X-Service-Signature does not verify against the raw body and the webhook's secret",
      }),
    );

  it('a rule of every delivery broken in two webhooks’ deliveries is one fault, reported under the first', () => {
    const faults = faultsOf([wrongSignature(created), wrongSignature(resolved)]);
    expect(faults).toHaveLength(1);
    expect(faults[0]!.operation).toBe(created);
    expect(faults[0]!.seen.map((s) => s.id)).toEqual([`${created} › delivery`, `${resolved} › delivery`]);
  });

  it('a sentence of one webhook’s own, broken in two webhooks, is two faults', () => {
    const own = (hook: string, rule: 'findingCreated.1' | 'findingResolved.1') =>
      failed(hook, 'delivery', hook, found({ rule: [rule], observed: 'data.finding_id is "fnd_x", expected "fnd_y"' }));
    expect(faultsOf([own(created, 'findingCreated.1'), own(resolved, 'findingResolved.1')])).toHaveLength(2);
  });
});

describe('the rule summary of a run', () => {
  it('counts a fault whose cause is a schema, which fails no rule, and says what it broke', () => {
    const model = buildModel(loadDocument());
    const schemaFault = failed(GET_POLICY, 'success-response', GET_POLICY, [missingUpdatedAt]);
    const results = passedResults(planChecks(model, { profile: 'stateful', hasReadKey: true })).map((result) =>
      result.id === schemaFault.id ? schemaFault : result,
    );
    const [counts, ...lines] = formatRuleSummary(ruleCoverage(model.doc, results));
    expect(counts).toMatch(/ \(\d+ passed, 0 failed, \d+ skipped, \d+ not run; and 1 schema fault no rule states\)/);
    expect(lines).toContain(
      `  ✗ schema fault: the schema at ${SCHEMA}: \`updated_at\` is required — observed / must have required property 'updated_at'`,
    );
  });

  it('says nothing of schema faults when there are none', () => {
    const model = buildModel(loadDocument());
    const [counts] = formatRuleSummary(
      ruleCoverage(model.doc, passedResults(planChecks(model, { profile: 'stateful', hasReadKey: true }))),
    );
    expect(counts).toMatch(/ \(\d+ passed, 0 failed, \d+ skipped, \d+ not run\)/);
  });
});
