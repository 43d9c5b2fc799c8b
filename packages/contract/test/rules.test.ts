// The rule catalogue against the document: every sentence of every description is an entry, no
// entry is stale, every check an entry names exists; and the
// reports that trace a failure back to its sentence.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadDocument } from 'secmon-api/src/document';
import { describe, expect, it } from 'vitest';
import { splitDescription } from '../../../common/sentences.ts';
import { coverage } from '../src/kit/coverage.ts';
import type { Exchange } from '../src/kit/http.ts';
import { junitReport } from '../src/kit/junit.ts';
import { planChecks } from '../src/kit/plan.ts';
import { type CheckName, checksJudging, DEFINITIONS, definitionOf, isCheckName } from '../src/kit/registry.ts';
import { CATALOGUE, type RuleId } from '../src/kit/rules/catalogue.ts';
import { type CatalogueEntry, catalogueDrift, nextId, statusOf } from '../src/kit/rules/rule.ts';
import { formatRules, ruleCoverage, traceFailure } from '../src/kit/rules/trace.ts';
import { NOT_YET_PROVEN } from '../src/kit/rules/unproven.ts';
import { buildModel } from '../src/kit/spec.ts';
import { violationsOf } from '../src/kit/violation.ts';
import { failureOf } from './check-failure.ts';
import { passedResults } from './suite.ts';

describe('the rule catalogue', () => {
  it('holds every sentence of the document’s descriptions, and nothing the document no longer says', () => {
    const drift = catalogueDrift(loadDocument(), CATALOGUE);
    const hint = 'run `npm run contract:rules` and paste what it prints into packages/contract/src/kit/rules/catalogue.ts';
    expect(
      drift.missing.map((s) => `${s.at}: ${s.text}`),
      hint,
    ).toEqual([]);
    expect(
      drift.stale.map((e) => `${e.id} ${e.at}: ${e.text}`),
      hint,
    ).toEqual([]);
    expect(drift.duplicateIds).toEqual([]);
  });

  it('every check judges at least one rule, only rules (not unobservable or informative entries), each once', () => {
    const entries = new Map<string, CatalogueEntry>(CATALOGUE.map((entry) => [entry.id, entry]));
    for (const definition of DEFINITIONS) {
      expect(definition.rules.length, definition.name).toBeGreaterThan(0);
      expect(new Set(definition.rules).size, definition.name).toBe(definition.rules.length);
      expect(
        definition.rules.filter((id) => statusOf(entries.get(id)!) !== 'checked'),
        definition.name,
      ).toEqual([]);
    }
    for (const entry of CATALOGUE) if ('unobservable' in entry) expect(entry.unobservable.length, entry.id).toBeGreaterThan(10);
  });

  it('the rule README’s table of behaviour checks names only checks of the registry', () => {
    const readme = readFileSync(new URL('../src/kit/rules/README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('| check | rules (groups) |'));
    const named = table
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...line.split(' | ')[0]!.matchAll(/`([a-z0-9-]+)`/g)].map((match) => match[1]!));
    expect(named.length).toBeGreaterThan(15);
    expect(named.filter((name) => !isCheckName(name))).toEqual([]);
  });

  it('check names and rule ids are types: a misspelt one does not compile (tsc checks the lines below)', () => {
    // @ts-expect-error no check is called this
    const check: CheckName = 'policy-in-uses';
    // @ts-expect-error no rule has this id
    const rule: RuleId = 'deletePolicy.99';
    expect(isCheckName(check)).toBe(false);
    expect(checksJudging(rule)).toEqual([]);
  });

  it('counts: most sentences are rules, and every rule is checked or says why it cannot be', () => {
    const counts = { checked: 0, 'not observable': 0, informative: 0 };
    for (const entry of CATALOGUE) counts[statusOf(entry)]++;
    expect(counts.checked).toBeGreaterThan(counts['not observable'] * 5);
    expect(ruleCoverage(loadDocument()).uncovered).toEqual([]);
  });

  it('`npm run contract:rules` agrees (exit 0) and `--rules` lists every entry', () => {
    const sync = execFileSync(process.execPath, [fileURLToPath(new URL('../src/kit/rules/sync.ts', import.meta.url))], {
      encoding: 'utf8',
    });
    expect(sync).toContain(`the catalogue matches the document: ${CATALOGUE.length} entries`);
    const listed = formatRules(ruleCoverage(loadDocument()));
    for (const entry of CATALOGUE) expect(listed).toContain(entry.id);
    expect(listed).toMatch(/\d+ rules in the document's descriptions: \d+ checked, \d+ not observable from outside, 0 not covered/);
    expect(listed).toContain(
      `of the ${ruleCoverage(loadDocument()).counts.checked} checked, ${ruleCoverage(loadDocument()).counts.checked - NOT_YET_PROVEN.length} proven`,
    );
    expect(listed).toMatch(/errors\.2 +\[checked\] .*\n +checks: [a-z, -]+; proven\n/);
    expect(listed).toMatch(/errors\.4 +\[checked\] .*\n +checks: [a-z, -]+; proven\n/);
    // Every checked rule is proven: the ledger owes nothing, and the listing says so of each.
    expect(listed).not.toContain('not proven yet\n');
  });
});

describe('drift between the document and the catalogue', () => {
  it('a changed sentence is one missing and one stale entry, and fails the coverage gate until re-synced', () => {
    const doc = loadDocument();
    const put = doc.paths!['/v1/webhooks/{id}']!.put!;
    put.description = put.description!.replace(
      /Re-enabling a\s+webhook the service disabled clears `disabled_reason`\./,
      'Re-enabling a webhook clears `disabled_reason` at once.',
    );
    const drift = catalogueDrift(doc, CATALOGUE);
    expect(drift.missing.map((s) => s.text)).toEqual(['Re-enabling a webhook clears `disabled_reason` at once.']);
    expect(drift.stale.map((e) => e.id)).toEqual(['updateWebhook.2']);
    const model = buildModel(doc);
    const plan = planChecks(model, { profile: 'stateful', hasReadKey: true });
    const allPassed = passedResults(plan);
    const report = coverage(model, allPassed);
    expect(report.passed).toBe(false);
    expect(report.rules.uncovered.map((r) => r.reason)).toEqual([
      'not in the rule catalogue (npm run contract:rules)',
      'stale: the document no longer says this (npm run contract:rules)',
    ]);
  });

  it('a rule no check judges is uncovered', () => {
    const judges = (rule: string) => (rule === 'deletePolicy.2' ? [] : checksJudging(rule));
    expect(ruleCoverage(loadDocument(), [], CATALOGUE, judges).uncovered.map((r) => [r.id, r.reason])).toEqual([
      ['deletePolicy.2', 'no check judges it'],
    ]);
  });

  it('new ids continue the numbering of their area', () => {
    expect(nextId(CATALOGUE, 'updateWebhook')).toBe('updateWebhook.7');
    expect(nextId(CATALOGUE, 'schema.NewThing')).toBe('schema.NewThing.1');
  });
});

describe('sentences of a Markdown description', () => {
  // A sentence ends at `.`, `!` or `?` right before a space: one closed by `**` or `)` runs on.
  it('splits paragraphs into sentences, keeps table rows, list items and code blocks whole, and skips headings', () => {
    const text = [
      '## Errors',
      'Every error is a problem. Branch on `type`, which is stable:',
      '',
      '| type | status |',
      '|---|---|',
      '| `not-found` | 404 |',
      '',
      '1. `GET` it; keep the `ETag`.',
      '2. `PUT` it.',
      '```json',
      '{"a": 1}',
      '```',
      '**Bold.** Still one. Done? (A parenthesis.) Not cut there.',
    ].join('\n');
    expect(splitDescription(text)).toEqual(
      [
        'Every error is a problem.',
        'Branch on `type`, which is stable:',
        '`not-found` | 404',
        '`GET` it; keep the `ETag`.',
        '`PUT` it.',
        '```json {"a": 1} ```',
        '**Bold.** Still one.',
        'Done?',
        '(A parenthesis.) Not cut there.',
      ].map((sentence) => ({ text: sentence, section: 'Errors' })),
    );
  });
});

describe('a failure names the rule it breaks', () => {
  const label = 'deletePolicy (DELETE /v1/policies/{id})';
  const sent = (path: string): Exchange => ({
    request: { method: 'DELETE', url: `http://target${path}`, headers: { Authorization: 'Bearer <api-key>' } },
    status: 204,
    headers: new Headers(),
    mediaType: '',
    text: '',
  });

  it('as data: the rule, its sentence and pointer, and the exchanges up to the one judged', () => {
    const [earlier, judged, later] = [sent('/v1/policies/a'), sent('/v1/policies/b'), sent('/v1/policies/c')];
    const error = failureOf('policy-in-use', (check) =>
      check.fail({ at: label, rule: 'deletePolicy.2', observed: 'deleting answered 204', exchange: judged }),
    );
    const [violation, ...more] = violationsOf('policy-in-use', error, [earlier!, judged!, later!]);
    expect(more).toEqual([]);
    expect(violation).toMatchObject({
      check: 'policy-in-use',
      rule: 'deletePolicy.2',
      pointer: '/paths/~1v1~1policies~1{id}/delete/description',
      observed: 'deleting answered 204',
    });
    expect(violation!.sentence).toMatch(/^Refused with `409` \(`policy-in-use`\)/);
    expect(violation!.expected).toBe(violation!.sentence);
    expect(violation!.exchanges).toEqual([earlier, judged]);
  });

  it('first line with the rule ids (what JUnit shows), the sentence below', () => {
    const error = failureOf('policy-in-use', (check) =>
      check.fail({ at: label, rule: 'deletePolicy.2', observed: 'deleting answered 204' }),
    );
    const traced = traceFailure('policy-in-use', error.message, violationsOf('policy-in-use', error, []));
    const [first, ...rest] = traced.split('\n');
    expect(rest[0]).toBe('  ✗ [expectation] rule deletePolicy.2: deleting answered 204');
    expect(first).toBe('deletePolicy (DELETE /v1/policies/{id}) — check "policy-in-use" failed (breaks rule deletePolicy.2)');
    expect(rest.at(-1)).toMatch(
      /^ {2}rule deletePolicy\.2 \(\/paths\/~1v1~1policies~1\{id\}\/delete\/description\): “Refused with `409` \(`policy-in-use`\)/,
    );
  });

  it('JUnit carries the rules a failure breaks, taken from its violations', () => {
    const error = failureOf('policy-in-use', (check) =>
      check.fail({ at: label, rule: 'deletePolicy.2', observed: 'deleting answered 204' }),
    );
    const violations = violationsOf('policy-in-use', error, []);
    const failed = {
      id: `${label} › policy-in-use`,
      check: 'policy-in-use' as const,
      subjects: [label],
      exercisesSuccess: true,
      outcome: 'failed' as const,
      error: traceFailure('policy-in-use', error.message, violations),
      violations,
      ms: 1,
    };
    expect(junitReport('kit', [failed], 1)).toMatch(
      /<failure message="rule deletePolicy\.2: “Refused with [^"]*— observed deleting answered 204" type="deletePolicy\.2">/,
    );
  });

  it('--rules takes the verdict from the violations: the rule a failure names failed, not every rule of its check', () => {
    const model = buildModel(loadDocument());
    const results = passedResults(planChecks(model, { profile: 'stateful', hasReadKey: true })).map((result) => {
      if (result.check !== 'delivery-semantics') return result;
      const error = failureOf('delivery-semantics', (check) =>
        check.fail({ at: result.id, rule: 'webhooks.2', observed: 'a disabled webhook got it' }),
      );
      return { ...result, outcome: 'failed' as const, violations: violationsOf(result.check, error, []) };
    });
    const verdicts = new Map(ruleCoverage(model.doc, results).rows.map((row) => [row.id, row.verdict]));
    expect(verdicts.get('webhooks.2')).toBe('failed');
    const others = definitionOf('delivery-semantics').rules.filter((id) => id !== 'webhooks.2');
    expect(others.filter((id) => verdicts.get(id) === 'failed')).toEqual([]);
  });

  it('a failure that cites no rule lists the rules its check judges', () => {
    const error = failureOf('unsupported-method', (check) =>
      check.fail({ at: 'listPolicies (GET /v1/policies)', observed: 'PATCH answered 200' }),
    );
    const violations = violationsOf('unsupported-method', error, []);
    expect(violations.map((v) => v.rule)).toEqual([undefined]);
    const traced = traceFailure('unsupported-method', error.message, violations);
    expect(traced).toContain('no rule sentence names what broke; the check "unsupported-method" judges the rules:');
    expect(traced).toContain('errors.11');
  });
});
