// A seeded, stratified sample of mutants: every (folder, mutator) stratum takes its turn, so a
// small sample still reaches every folder and kind of mutation, and the same seed picks the same
// mutants. Stryker runs a range's nested mutants with it (a block and the statements inside), so
// a pick costs its nested mutants too and the sample's size counts every mutant that will run.
import type { Candidate, Position } from './candidates.ts';

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.column <= b.column);
/** Whether `inner` lies within `outer` (Stryker's test for a mutation range). */
export const contains = (outer: Candidate, inner: Candidate) =>
  outer.file === inner.file && before(outer.start, inner.start) && before(inner.end, outer.end);

/** mulberry32: small, fast and the same everywhere, so a seed names a sample. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export interface Sample {
  /** The mutants picked, in the order picked. */
  picked: Candidate[];
  /** Every mutant the run will make: the picked ones and those nested in them. */
  runs: Candidate[];
}

/** Up to `size` mutants of `candidates` (every one when `size` is undefined), stratified by folder and mutator. */
export function sampleMutants(candidates: readonly Candidate[], size: number | undefined, seed: number): Sample {
  if (size === undefined) return { picked: [...candidates], runs: [...candidates] };
  const next = random(seed);
  const strata = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const stratum = `${candidate.folder} ${candidate.mutator}`;
    strata.set(stratum, [...(strata.get(stratum) ?? []), candidate]);
  }
  const queues = shuffle(
    [...strata.keys()].sort().map((stratum) => shuffle(strata.get(stratum)!, next)),
    next,
  );
  const picked: Candidate[] = [];
  const runs = new Map<string, Candidate>();
  while (queues.some((queue) => queue.length > 0) && runs.size < size) {
    for (const queue of queues) {
      const candidate = queue.shift();
      if (!candidate || runs.has(candidate.key)) continue;
      const nested = candidates.filter((other) => contains(candidate, other) && !runs.has(other.key));
      if (runs.size + nested.length > size) continue;
      picked.push(candidate);
      for (const mutant of nested) runs.set(mutant.key, mutant);
    }
  }
  return { picked, runs: [...runs.values()] };
}

/** Stryker's `mutate` entries for `picked`: `file:line:column-line:column`, lines from 1. */
export const mutateRanges = (picked: readonly Candidate[]) =>
  picked.map((m) => `${m.file}:${m.start.line + 1}:${m.start.column}-${m.end.line + 1}:${m.end.column}`);
