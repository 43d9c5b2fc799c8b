// Which source files a run of the server executed code in that a server which only starts and
// answers nothing does not: V8's coverage (NODE_V8_COVERAGE) of each, compared offset by offset.
// V8 nests a script's ranges (the script, its functions, their blocks) and leaves out a block that
// ran as often as its parent, so what ran at an offset is the count of the innermost range holding
// it, in each run, never a range's own entry looked up in the other run. A script loaded by
// several threads of one process has a report of its own in each: it ran where any says so.
import { fileURLToPath } from 'node:url';

export interface CoverageRange {
  startOffset: number;
  endOffset: number;
  count: number;
}

export interface ScriptCoverage {
  url: string;
  functions: { ranges: CoverageRange[] }[];
}

/** How often the innermost range of `ranges` that holds `[start, end)` ran; 0 where none does. */
function countAt(ranges: readonly CoverageRange[], start: number, end: number): number {
  let innermost: CoverageRange | undefined;
  for (const range of ranges) {
    if (range.startOffset > start || range.endOffset < end) continue;
    if (!innermost || range.endOffset - range.startOffset <= innermost.endOffset - innermost.startOffset) innermost = range;
  }
  return innermost?.count ?? 0;
}

/** A script's reports: one list of ranges per thread that loaded it. */
type Reports = readonly (readonly CoverageRange[])[];

const ranAt = (reports: Reports, start: number, end: number) => reports.some((ranges) => countAt(ranges, start, end) > 0);

/** Whether some stretch of a script ran in `run` and never in `baseline` (either may lack the script). */
export function ranBeyond(run: Reports, baseline: Reports): boolean {
  const bounds = [...new Set([...run, ...baseline].flat().flatMap((r) => [r.startOffset, r.endOffset]))].sort((a, b) => a - b);
  for (let i = 0; i + 1 < bounds.length; i++) {
    const [start, end] = [bounds[i]!, bounds[i + 1]!];
    if (ranAt(run, start, end) && !ranAt(baseline, start, end)) return true;
  }
  return false;
}

/** The reports of the scripts under `root`, by path relative to it. */
export function reportsByFile(scripts: readonly ScriptCoverage[], root: string): Map<string, CoverageRange[][]> {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  const byFile = new Map<string, CoverageRange[][]>();
  for (const script of scripts) {
    if (!script.url.startsWith('file:')) continue;
    const path = fileURLToPath(script.url);
    if (!path.startsWith(prefix)) continue;
    const file = path.slice(prefix.length);
    byFile.set(file, [...(byFile.get(file) ?? []), script.functions.flatMap((f) => f.ranges)]);
  }
  return byFile;
}

/** Which of `files` (relative to `root`) ran code in `run` that did not run in `baseline`. */
export function filesReached(
  run: readonly ScriptCoverage[],
  baseline: readonly ScriptCoverage[],
  root: string,
  files: readonly string[],
): string[] {
  const [ran, started] = [reportsByFile(run, root), reportsByFile(baseline, root)];
  return files.filter((file) => ranBeyond(ran.get(file) ?? [], started.get(file) ?? []));
}
