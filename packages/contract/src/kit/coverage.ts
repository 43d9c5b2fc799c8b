// The coverage table and gate: every operation and webhook of the document, with what each check
// did for it. The gate fails when a check failed, or when an operation or webhook has no check at
// all (the kit could derive none, as for a new kind of operation), or none that ran without a
// stated reason.

import { CHECK_NAMES, type CheckName, definitionOf } from './registry.ts';
import type { CheckResult } from './results.ts';
import { formatRuleSummary, type RuleCoverage, type RuleScope, ruleCoverage } from './rules/trace.ts';
import type { ContractModel } from './spec.ts';

export interface CoverageRow {
  subject: string;
  kind: 'operation' | 'webhook';
  results: CheckResult[];
  /** Why this row fails the gate, if it does. */
  gap?: string;
}

export interface Coverage {
  rows: CoverageRow[];
  failed: CheckResult[];
  /** Every rule of the document's descriptions and what the run did for it. */
  rules: RuleCoverage;
  passed: boolean;
}

export function coverage(model: ContractModel, results: CheckResult[], scope?: RuleScope): Coverage {
  const subjects = [
    ...model.operations.map((op) => ({ subject: op.label, kind: 'operation' as const })),
    ...model.webhooks.map((webhook) => ({ subject: webhook.label, kind: 'webhook' as const })),
  ];
  const rows = subjects.map(({ subject, kind }): CoverageRow => {
    const mine = results.filter((r) => r.subjects.includes(subject));
    const success = mine.filter((r) => r.exercisesSuccess);
    let gap: string | undefined;
    if (mine.length === 0) gap = 'no check could be derived for it from the document';
    else if (success.length === 0) gap = 'no check exercises a success response or delivery';
    else if (success.every((r) => r.outcome === 'skipped' && !r.reason)) gap = 'every success check was skipped without a reason';
    return { subject, kind, results: mine, ...(gap ? { gap } : {}) };
  });
  const failed = results.filter((r) => r.outcome === 'failed');
  const rules = ruleCoverage(model.doc, results, undefined, undefined, scope);
  return {
    rows,
    failed,
    rules,
    passed: failed.length === 0 && rows.every((row) => !row.gap) && results.every((r) => !r.gate) && rules.uncovered.length === 0,
  };
}

export const MARK = { passed: '✓', failed: '✗', skipped: '–', 'known-limit': '!' } as const;

/** The table as text: a matrix (✓ passed, ✗ failed, – skipped, ! known limit) and the reasons below it. */
export function formatCoverage(report: Coverage, heading = 'Contract coverage'): string {
  const columns = CHECK_NAMES.filter((check) => report.rows.some((row) => row.results.some((r) => r.check === check)));
  const width = Math.max(...report.rows.map((row) => row.subject.length), 20);
  const column = (check: CheckName) => definitionOf(check).column;
  const cell = (text: string, check: CheckName) => text.padEnd(Math.max(column(check).length, 1) + 1);
  const lines = [`${heading}  (✓ passed  ✗ failed  – skipped  ! known limit  . not applicable)`, ''];
  lines.push(`${'operation / webhook'.padEnd(width)}  ${columns.map((c) => cell(column(c), c)).join('')}`);
  const legend = columns.map((check) => `${column(check)} = ${check}`);
  for (const row of report.rows) {
    const marks = columns.map((check) => {
      const found = row.results.filter((r) => r.check === check);
      const mark = found.length === 0 ? '.' : MARK[worst(found)];
      return cell(mark, check);
    });
    lines.push(`${row.subject.padEnd(width)}  ${marks.join('')}${row.gap ? `  ← GAP: ${row.gap}` : ''}`);
  }
  const counts = report.rows.flatMap((row) => row.results);
  const notes = new Map<string, string[]>();
  for (const row of report.rows) {
    for (const result of row.results) {
      if (result.outcome !== 'skipped' && result.outcome !== 'known-limit') continue;
      const key = `${MARK[result.outcome]} ${result.check}: ${result.reason ?? ''}`;
      notes.set(key, [...(notes.get(key) ?? []), row.subject.split(' ')[0]!]);
    }
  }
  lines.push('', `Columns: ${legend.join(', ')}`);
  if (notes.size > 0) {
    lines.push('', 'Skipped and known limits:');
    for (const [note, who] of notes) lines.push(`  ${note}  [${[...new Set(who)].join(', ')}]`);
  }
  // What fails the gate without a failed check: one line each, with the way out.
  const gates = [...new Set(counts.filter((r) => r.gate).map((r) => r.gate!))];
  if (gates.length > 0) {
    lines.push('', 'Not covered, so the gate fails:');
    for (const gate of gates) lines.push(`  ✗ ${gate}`);
  }
  const unique = new Map(counts.map((r) => [r.id, r]));
  const tally = (outcome: string) => [...unique.values()].filter((r) => r.outcome === outcome).length;
  lines.push('', ...formatRuleSummary(report.rules));
  lines.push(
    '',
    `${unique.size} checks: ${tally('passed')} passed, ${tally('failed')} failed, ${tally('skipped')} skipped, ${tally('known-limit')} known limits — gate ${report.passed ? 'PASSED' : 'FAILED'}`,
  );
  return lines.join('\n');
}

function worst(results: CheckResult[]): CheckResult['outcome'] {
  for (const outcome of ['failed', 'known-limit', 'passed', 'skipped'] as const) {
    if (results.some((r) => r.outcome === outcome)) return outcome;
  }
  return 'skipped';
}
