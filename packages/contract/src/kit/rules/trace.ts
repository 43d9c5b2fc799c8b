// From the sentence to the verdict and back: which rules a check judges, the rule a failure breaks
// (named in the report's first line, so the console and JUnit show it), what a run did for every
// rule of the catalogue, and the catalogue as `--rules` prints it.
import type { OpenApiDocument } from 'secmon-api/src/document';
import { faultsOf } from '../faults.ts';
import { type CheckName, checksJudging, definitionOf } from '../registry.ts';
import type { CheckResult } from '../results.ts';
import type { Violation } from '../violation.ts';
import { CATALOGUE, type RuleId } from './catalogue.ts';

import { quote, schemaClause } from './headline.ts';
import { type CatalogueEntry, catalogueDrift, statusOf } from './rule.ts';
import { NOT_YET_PROVEN } from './unproven.ts';

/** The catalogue entries of the rules a check judges. */
export function rulesOfCheck(check: CheckName, catalogue: readonly CatalogueEntry[] = CATALOGUE): CatalogueEntry[] {
  const judged: readonly string[] = definitionOf(check).rules;
  return catalogue.filter((entry) => judged.includes(entry.id));
}

/**
 * A failure report headed by the rule its violations break most directly: its id (then the other
 * rules the same observations touch, as "also") at the end of the first line, each with its
 * sentence below, the headline's first; a violation of a schema names the schema and the field; a
 * failure that breaks no rule of the catalogue and names no field lists the rules its check judges.
 */
export function traceFailure(
  check: CheckName,
  report: string,
  violations: readonly Violation[],
  catalogue: readonly CatalogueEntry[] = CATALOGUE,
): string {
  const headlines = [...new Set(violations.flatMap((v) => (v.rule ? [v.rule] : [])))];
  const also = [...new Set(violations.flatMap((v) => v.also ?? []))].filter((id) => !headlines.includes(id));
  const [first = '', ...rest] = report.split('\n');
  if (headlines.length > 0) {
    const sentences = [...headlines, ...also].map((id) => {
      const entry = catalogue.find((e) => e.id === id);
      return `  rule ${id} (${entry?.at ?? ''}): ${quote(entry?.text ?? '')}`;
    });
    return [
      `${first} (breaks rule ${headlines.join(', ')}${also.length > 0 ? `; also ${also.join(', ')}` : ''})`,
      ...rest,
      ...sentences,
    ].join('\n');
  }
  const schema = violations.find((v) => v.subject?.missing || (v.pointer && v.subject?.what));
  if (schema) return [`${first} (breaks ${schemaClause(schema)})`, ...rest].join('\n');
  const judged = rulesOfCheck(check, catalogue);
  if (judged.length === 0) return report;
  const shown = judged.slice(0, 4).map((e) => `    ${e.id}: ${quote(e.text)}`);
  const more = judged.length > 4 ? [`    … and ${judged.length - 4} more (secmon-contract --rules)`] : [];
  return [report, `  no rule sentence names what broke; the check "${check}" judges the rules:`, ...shown, ...more].join('\n');
}

export type RuleVerdict = 'checked' | 'passed' | 'failed' | 'skipped' | 'not run' | 'not observable' | 'informative' | 'uncovered';

export interface RuleRow {
  id: string;
  at: string;
  text: string;
  checks: readonly CheckName[];
  verdict: RuleVerdict;
  /** A checked rule a fault test proves: a fault breaking exactly it fails the check naming it. */
  proven: boolean;
  /** Why: the reason it is not observable, or why it is uncovered. */
  reason?: string;
}

/** The version of the contract a report is about: the rules it states, and how many came later. */
export interface RuleScope {
  target: string;
  /** Whether the rule sentence at `at` is part of the target version. */
  includes(rule: { at: string; text: string }): boolean;
}

export interface RuleCoverage {
  rows: RuleRow[];
  /** With a scope: the version judged, and how many of the document's rules and informative sentences are newer (not in `rows`). */
  scope?: { target: string; later: { rules: number; informative: number } };
  counts: Record<RuleVerdict, number> & { rules: number; checked: number; proven: number };
  /**
   * After a run: its faults whose cause is a schema, not a sentence (a required field missing, a
   * field of the wrong type). They fail no rule, so the rule counts alone would hide them.
   */
  schemaFaults?: string[];
  /** Sentences of the document the catalogue lacks, and checked rules with no check in the run's plan. */
  uncovered: RuleRow[];
}

/**
 * Every rule's verdict in a run: `results` are the run's check results (planned skips included);
 * without them, only what the catalogue says. A rule no check judges, or a sentence the catalogue
 * lacks, is uncovered. A rule failed when a violation names it, or when one of its checks failed
 * without naming any rule.
 */
export function ruleCoverage(
  doc: OpenApiDocument,
  results?: CheckResult[],
  catalogue: readonly CatalogueEntry[] = CATALOGUE,
  judges: (rule: string) => CheckName[] = checksJudging,
  scope?: RuleScope,
): RuleCoverage {
  const drift = catalogueDrift(doc, catalogue);
  const unproven = new Set<string>(NOT_YET_PROVEN);
  const stale = new Set(drift.stale);
  const all: RuleRow[] = [];
  // A fault counts once: on its headline rule, however many checks met it under other rules.
  const faults = results ? faultsOf(results) : [];
  const headlines = new Set(faults.flatMap((fault) => (fault.violation.rule ? [fault.violation.rule] : [])));
  const schemaFaults = faults.filter((fault) => !fault.violation.rule && fault.violation.subject?.what).map((fault) => fault.headline);
  for (const entry of catalogue) {
    if (stale.has(entry)) continue;
    const checked = statusOf(entry) === 'checked';
    const judgedBy = checked ? judges(entry.id) : [];
    const base = { id: entry.id, at: entry.at, text: entry.text, checks: judgedBy, proven: judgedBy.length > 0 && !unproven.has(entry.id) };
    if (!checked) {
      all.push({
        ...base,
        verdict: statusOf(entry) === 'informative' ? 'informative' : 'not observable',
        ...('unobservable' in entry ? { reason: entry.unobservable } : {}),
      });
      continue;
    }
    if (base.checks.length === 0) {
      all.push({ ...base, verdict: 'uncovered', reason: 'no check judges it' });
      continue;
    }
    if (!results) {
      all.push({ ...base, verdict: 'checked' });
      continue;
    }
    const named = (r: CheckResult) => (r.violations ?? []).flatMap((v) => (v.rule ? [v.rule] : []));
    const mine = results.filter((r) => base.checks.includes(r.check) || named(r).includes(entry.id as RuleId));
    // A fault counts once, on the rule it breaks most directly; a failure that names no rule and no
    // field (no answer at all) still fails the rules of its check.
    const unnamed = (r: CheckResult) => (r.violations ?? []).every((v) => !v.rule && !v.subject?.what);
    const breaks = (r: CheckResult) =>
      r.outcome === 'failed' && ((unnamed(r) && base.checks.includes(r.check)) || headlines.has(entry.id as RuleId));
    let verdict: RuleVerdict;
    if (mine.length === 0) verdict = 'not run';
    else if (mine.some(breaks)) verdict = 'failed';
    else if (mine.some((r) => r.outcome === 'passed' || r.outcome === 'known-limit')) verdict = 'passed';
    else verdict = 'skipped';
    all.push({ ...base, verdict });
  }
  for (const sentence of drift.missing) {
    all.push({
      id: '(none)',
      at: sentence.at,
      text: sentence.text,
      checks: [],
      proven: false,
      verdict: 'uncovered',
      reason: 'not in the rule catalogue (npm run contract:rules)',
    });
  }
  for (const entry of drift.stale) {
    all.push({
      id: entry.id,
      at: entry.at,
      text: entry.text,
      checks: [],
      proven: false,
      verdict: 'uncovered',
      reason: 'stale: the document no longer says this (npm run contract:rules)',
    });
  }
  // A scoped report is about the target version alone: newer rows are only counted, as later.
  const rows = scope ? all.filter((row) => scope.includes(row)) : all;
  const newer = scope ? all.filter((row) => !scope.includes(row)) : [];
  const informative = newer.filter((row) => row.verdict === 'informative').length;
  const later = { rules: newer.length - informative, informative };
  const verdicts: RuleVerdict[] = ['checked', 'passed', 'failed', 'skipped', 'not run', 'not observable', 'informative', 'uncovered'];
  const counts = Object.fromEntries(verdicts.map((v) => [v, rows.filter((r) => r.verdict === v).length])) as RuleCoverage['counts'];
  counts.rules = rows.filter((r) => r.verdict !== 'informative').length;
  counts.checked = rows.filter((r) => r.checks.length > 0 && r.verdict !== 'uncovered').length;
  counts.proven = rows.filter((r) => r.proven && r.verdict !== 'uncovered').length;
  return {
    rows,
    counts,
    uncovered: rows.filter((r) => r.verdict === 'uncovered'),
    ...(results ? { schemaFaults } : {}),
    ...(scope ? { scope: { target: scope.target, later } } : {}),
  };
}

/** The coverage summary's lines about rules. */
export function formatRuleSummary(report: RuleCoverage): string[] {
  const { counts } = report;
  // After a run (not for the catalogue alone), what the checks said.
  const ran = counts.checked > 0 && report.rows.every((r) => r.verdict !== 'checked');
  const schema = report.schemaFaults?.length ?? 0;
  const schemaClause = schema > 0 ? `; and ${schema} schema fault${schema === 1 ? '' : 's'} no rule states` : '';
  const run = ran
    ? ` (${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped, ${counts['not run']} not run${schemaClause})`
    : '';
  const of = report.scope ? `the descriptions of version ${report.scope.target}` : "the document's descriptions";
  const lines = [
    `${counts.rules} rules in ${of}: ${counts.checked} checked${run}, ${counts['not observable']} not observable from outside, ${counts.uncovered} not covered; ${counts.informative} informative sentences`,
    `  of the ${counts.checked} checked, ${counts.proven} proven (a fault breaking exactly the rule fails its check naming it), ${counts.checked - counts.proven} not proven yet`,
  ];
  for (const fault of report.schemaFaults ?? []) lines.push(`  ✗ schema fault: ${fault}`);
  const later = report.scope?.later;
  if (later && later.rules + later.informative > 0)
    lines.push(
      `  not in ${report.scope!.target}: ${later.rules} rules and ${later.informative} informative sentences of later versions, neither listed nor counted`,
    );
  for (const row of report.uncovered.slice(0, 10)) lines.push(`  ← RULE GAP ${row.id} (${row.at}): ${quote(row.text)} — ${row.reason}`);
  if (report.uncovered.length > 10) lines.push(`  … and ${report.uncovered.length - 10} more rule gaps`);
  return lines;
}

/**
 * `secmon-contract --rules`: every catalogue entry with its status and checks, grouped by where it
 * is; with `since`, the version of the contract each rule applies since.
 */
export function formatRules(report: RuleCoverage, since?: (row: RuleRow) => string): string {
  const lines: string[] = [];
  let at = '';
  for (const row of report.rows) {
    if (row.at !== at) {
      at = row.at;
      lines.push('', at);
    }
    const proof = row.proven ? 'proven' : 'not proven yet';
    const how =
      row.checks.length > 0 ? `checks: ${row.checks.join(', ')}; ${proof}` : row.reason ? `${row.verdict}: ${row.reason}` : row.verdict;
    const version = since && row.id !== '(none)' ? `since ${since(row)}; ` : '';
    lines.push(`  ${row.id.padEnd(34)} [${row.verdict}] ${quote(row.text)}`, `  ${''.padEnd(34)} ${version}${how}`);
  }
  lines.push('', ...formatRuleSummary(report));
  return lines.join('\n').trimStart();
}
