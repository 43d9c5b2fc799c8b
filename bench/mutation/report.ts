// What a mutation run comes to: per folder and per kind of mutation, the mutants killed against
// those that changed behaviour a client can see (the ledger's equivalent, unobservable and unspecified
// survivors are left out), and the survivors still without a verdict.
import type { Candidate } from './candidates.ts';
import type { Verdict } from './ledger.ts';

/** Stryker's statuses: a mutant is detected when the kit failed, the target timed out or crashed. */
export type Status = 'Killed' | 'Survived' | 'Timeout' | 'RuntimeError' | 'CompileError' | 'NoCoverage' | 'Ignored' | 'Pending';

export interface Outcome {
  mutant: Candidate;
  status: Status;
  /** What the kit said when it killed the mutant (its first lines). */
  reason?: string;
}

export interface Tally {
  mutants: number;
  killed: number;
  survived: number;
  excused: number;
}

export const DETECTED: ReadonlySet<Status> = new Set(['Killed', 'Timeout', 'RuntimeError', 'CompileError']);

export const killRate = (t: Tally) => (t.killed + t.survived === 0 ? 1 : t.killed / (t.killed + t.survived));

export interface MutationReport {
  total: Tally;
  byFolder: Map<string, Tally>;
  byMutator: Map<string, Tally>;
  /** Surviving mutants the ledger has no verdict for, and those it calls gaps. */
  unjudged: Candidate[];
  gaps: Candidate[];
}

export function summarise(outcomes: readonly Outcome[], ledger: Readonly<Record<string, Verdict>>): MutationReport {
  const empty = (): Tally => ({ mutants: 0, killed: 0, survived: 0, excused: 0 });
  const report: MutationReport = { total: empty(), byFolder: new Map(), byMutator: new Map(), unjudged: [], gaps: [] };
  for (const { mutant, status } of outcomes) {
    if (status === 'Ignored' || status === 'Pending') continue;
    const verdict = ledger[mutant.key]?.verdict;
    const survived = !DETECTED.has(status);
    if (survived && verdict === undefined) report.unjudged.push(mutant);
    if (survived && verdict === 'gap') report.gaps.push(mutant);
    for (const tally of [
      report.total,
      report.byFolder.get(mutant.folder) ?? report.byFolder.set(mutant.folder, empty()).get(mutant.folder)!,
      report.byMutator.get(mutant.mutator) ?? report.byMutator.set(mutant.mutator, empty()).get(mutant.mutator)!,
    ]) {
      tally.mutants++;
      if (!survived) tally.killed++;
      else if (verdict !== undefined && verdict !== 'gap') tally.excused++;
      else tally.survived++;
    }
  }
  return report;
}

const percent = (t: Tally) => `${(killRate(t) * 100).toFixed(1)} %`;

function table(title: string, rows: [string, Tally][]): string[] {
  const width = Math.max(title.length, ...rows.map(([name]) => name.length));
  const line = (name: string, t: Tally) =>
    `${name.padEnd(width)}  ${String(t.mutants).padStart(7)}  ${String(t.killed).padStart(6)}  ${String(t.survived).padStart(8)}  ${String(t.excused).padStart(7)}  ${percent(t).padStart(9)}`;
  return [`${title.padEnd(width)}  mutants  killed  survived  excused  kill rate`, ...rows.map(([name, t]) => line(name, t))];
}

export function formatReport(report: MutationReport): string {
  const sorted = (map: Map<string, Tally>) => [...map].sort(([a], [b]) => a.localeCompare(b));
  return [
    ...table('folder', [...sorted(report.byFolder), ['all', report.total]]),
    '',
    ...table('mutator', sorted(report.byMutator)),
    '',
    `kill rate over mutants a client can observe: ${percent(report.total)} (${report.total.killed} of ${report.total.killed + report.total.survived}; ${report.total.excused} equivalent, unobservable or unspecified, by the ledger)`,
    ...report.gaps.map((m) => `  gap (ledger): ${m.key}`),
    ...report.unjudged.map((m) => `  survivor without a verdict: ${m.key}`),
  ].join('\n');
}
