// The control of the per-file mode: the same sample run with the whole kit and with only the checks
// that reach each mutant's file, side by side. A mutant the whole kit kills and the per-file run
// does not is a defect of the check map (a check that reaches the file and is not in its set).
import { existsSync, readFileSync } from 'node:fs';
import type { Candidate } from './candidates.ts';
import { DETECTED, type Outcome } from './report.ts';

/** What kill.ts recorded for one mutant: how long it took and which checks judged it. */
export interface MutantRun {
  ms: number;
  checks: string[] | 'all';
}

export interface ModeRun {
  outcomes: Outcome[];
  /** The Stryker run's wall time, its dry run included. */
  seconds: number;
  /** By mutant key. */
  runs: Map<string, MutantRun>;
}

/** kill.ts's lines in `path` (one JSON object per mutant, by Stryker's id), by the key of the mutant `ids` names. */
export function readTimes(path: string, ids: ReadonlyMap<string, Candidate>): Map<string, MutantRun> {
  if (!existsSync(path)) return new Map();
  return new Map(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((line) => {
        const { id, ms, checks } = JSON.parse(line) as { id: string; ms: number; checks: string[] | 'all' };
        const mutant = ids.get(id);
        return mutant ? [[mutant.key, { ms, checks }] as const] : [];
      }),
  );
}

const killedKeys = (run: ModeRun) => new Set(run.outcomes.filter((o) => DETECTED.has(o.status)).map((o) => o.mutant.key));

/** The mutants `full` killed and `perFile` ran and did not kill. */
export function missedKills(full: ModeRun, perFile: ModeRun): Outcome[] {
  const killed = killedKeys(perFile);
  const ran = new Set(perFile.outcomes.map((o) => o.mutant.key));
  return full.outcomes.filter((o) => DETECTED.has(o.status) && ran.has(o.mutant.key) && !killed.has(o.mutant.key));
}

function meanSeconds(run: ModeRun): string {
  const times = [...run.runs.values()].map((r) => r.ms);
  return times.length === 0 ? '-' : (times.reduce((a, b) => a + b, 0) / times.length / 1000).toFixed(1);
}

export function formatControl(full: ModeRun, perFile: ModeRun): string {
  const [fullKilled, perFileKilled] = [killedKeys(full).size, killedKeys(perFile).size];
  const row = (name: string, a: string | number, b: string | number) =>
    `${name.padEnd(34)}${String(a).padStart(10)}${String(b).padStart(10)}`;
  const missed = missedKills(full, perFile);
  const extra = perFile.outcomes.filter((o) => DETECTED.has(o.status) && !killedKeys(full).has(o.mutant.key));
  const checksOf = (key: string) => {
    const checks = perFile.runs.get(key)?.checks;
    return checks === undefined ? 'not recorded' : checks === 'all' ? 'the whole kit' : checks.join(', ');
  };
  return [
    `control: the same ${full.outcomes.length} mutants judged by the whole kit and by the checks that reach each mutant's file`,
    row('', 'whole kit', 'per file'),
    row('killed', fullKilled, perFileKilled),
    row('survived', full.outcomes.length - fullKilled, perFile.outcomes.length - perFileKilled),
    row('seconds per mutant (kill.ts, mean)', meanSeconds(full), meanSeconds(perFile)),
    row('run wall time, dry run included (s)', full.seconds.toFixed(0), perFile.seconds.toFixed(0)),
    row(
      'mutants that ran the whole kit',
      [...full.runs.values()].length,
      [...perFile.runs.values()].filter((r) => r.checks === 'all').length,
    ),
    missed.length === 0
      ? 'killed by the whole kit and not per file: none'
      : `killed by the whole kit and not per file (a check map defect): ${missed.length}`,
    ...missed.map((o) => `  ${o.mutant.key}\n    per file ran: ${checksOf(o.mutant.key)}`),
    ...(extra.length > 0
      ? [`killed per file and not by the whole kit (the checks judged it alone, or in another order, differently): ${extra.length}`]
      : []),
    ...extra.map((o) => `  ${o.mutant.key}`),
  ].join('\n');
}
