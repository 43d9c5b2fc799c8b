// The behaviour space as data: cells of the axes the document defines (a resource state followed by
// a read, a schema keyword's boundary, a receiver's answer at an attempt, a header held against
// time, a cross-cutting rule on a class of answer), and which checks of a run exercised each.
// Cells come from the document wherever it lists them (schema keywords, enums, status codes,
// headers); a cell the document states but no black-box run can reach says why, and is shown
// without counting against the gate.

export interface Cell {
  /** The axis family: states, boundaries, receiver, headers-over-time, cross-cutting. */
  family: string;
  /** The axis within the family, for example `PolicyWrite.name maxLength 128`. */
  axis: string;
  /** The value on the axis, for example `128 astral characters (inside)`. */
  cell: string;
  /** Why no default run can reach this cell from outside the implementation (shown, not gated). */
  unreachable?: string;
}

/** What a run exercised: cell key → the checks (by result id) that exercised it. */
export type Exercised = Map<string, Set<string>>;

export const cellKey = (cell: Pick<Cell, 'family' | 'axis' | 'cell'>) => `${cell.family} | ${cell.axis} | ${cell.cell}`;

/** Marks `cell` as exercised by `by` (a check's result id). */
export function exercise(exercised: Exercised, cell: Pick<Cell, 'family' | 'axis' | 'cell'>, by: string): void {
  const key = cellKey(cell);
  const set = exercised.get(key) ?? new Set<string>();
  set.add(by);
  exercised.set(key, set);
}

export interface AxisCoverage {
  cells: { cell: Cell; by: string[] }[];
  /** Cells a run could reach that none exercised. */
  missing: Cell[];
  totals: { stated: number; reachable: number; exercised: number };
}

export function axisCoverage(cells: readonly Cell[], exercised: Exercised): AxisCoverage {
  const rows = cells.map((cell) => ({ cell, by: [...(exercised.get(cellKey(cell)) ?? [])].sort() }));
  const reachable = rows.filter((row) => !row.cell.unreachable);
  const missing = reachable.filter((row) => row.by.length === 0).map((row) => row.cell);
  return {
    cells: rows,
    missing,
    totals: { stated: rows.length, reachable: reachable.length, exercised: reachable.length - missing.length },
  };
}

/** The table `--coverage` prints: one line per cell, grouped by family and axis, then the totals. */
export function formatAxisCoverage(report: AxisCoverage): string {
  const lines = ['Behaviour space  (axis, cell, exercised by which check, or NOT exercised)'];
  let family = '';
  let axis = '';
  for (const { cell, by } of report.cells) {
    if (cell.family !== family) lines.push('', `${(family = cell.family)}`);
    if (cell.axis !== axis) lines.push(`  ${(axis = cell.axis)}`);
    const shown = by.length > 3 ? `${by.slice(0, 3).join(', ')} (+${by.length - 3})` : by.join(', ');
    const what = by.length > 0 ? `✓ ${shown}` : cell.unreachable ? `· not gated: ${cell.unreachable}` : '✗ NOT exercised';
    lines.push(`    ${cell.cell.padEnd(58)} ${what}`);
  }
  const { stated, reachable, exercised } = report.totals;
  lines.push(
    '',
    `${exercised} of ${reachable} cells exercised (${stated} stated, ${stated - reachable} not gated: no default run can reach them)${report.missing.length > 0 ? ` — ${report.missing.length} NOT exercised` : ''}`,
  );
  return lines.join('\n');
}
