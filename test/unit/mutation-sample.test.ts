// The mutation benchmark's sampling and report, without running a mutant: the same seed picks the
// same mutants, every stratum is reached before any is taken twice, a pick pays for the mutants
// nested in it, and the kill rate leaves out what the ledger calls equivalent, unobservable or unspecified.
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../bench/mutation/candidates.ts';
import { formatReport, summarise } from '../../bench/mutation/report.ts';
import { mutateRanges, sampleMutants } from '../../bench/mutation/sample.ts';

const mutant = (file: string, mutator: string, line: number, endLine = line): Candidate => ({
  key: `${file}:${line}:0:${mutator}:x`,
  file,
  folder: file.split('/').slice(0, 2).join('/'),
  mutator,
  replacement: 'x',
  start: { line, column: 0 },
  end: { line: endLine, column: 10 },
});

const candidates = [
  ...Array.from({ length: 20 }, (_, i) => mutant('packages/core/src/domain/a.ts', 'StringLiteral', i * 3)),
  ...Array.from({ length: 20 }, (_, i) => mutant('server/routes/b.ts', 'EqualityOperator', i * 3)),
  mutant('server/http/c.ts', 'BlockStatement', 0, 9),
  mutant('server/http/c.ts', 'BooleanLiteral', 2),
  mutant('server/http/c.ts', 'BooleanLiteral', 5),
];

describe('the mutation sample', () => {
  it('is the same for the same seed and another for another seed', () => {
    const keys = (seed: number) => sampleMutants(candidates, 6, seed).runs.map((m) => m.key);
    expect(keys(1)).toEqual(keys(1));
    expect(keys(1)).not.toEqual(keys(2));
  });

  it('reaches every (folder, mutator) stratum before taking a second of any', () => {
    const { picked } = sampleMutants(candidates, 4, 3);
    expect(new Set(picked.map((m) => `${m.folder} ${m.mutator}`)).size).toBe(picked.length);
  });

  it('counts the mutants nested in a pick, which Stryker runs with it, and never runs more than asked', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { picked, runs } = sampleMutants(candidates, 5, seed);
      expect(runs.length).toBeLessThanOrEqual(5);
      if (picked.some((m) => m.mutator === 'BlockStatement')) expect(runs.filter((m) => m.file === 'server/http/c.ts')).toHaveLength(3);
    }
    expect(sampleMutants(candidates, undefined, 1).runs).toHaveLength(candidates.length);
  });

  it("names each pick as Stryker's mutate range, lines from 1", () => {
    expect(mutateRanges([mutant('server/http/c.ts', 'BlockStatement', 0, 9)])).toEqual(['server/http/c.ts:1:0-10:10']);
  });
});

describe('the mutation report', () => {
  const [a, b, c, d] = candidates;
  const outcomes = [
    { mutant: a!, status: 'Killed' as const },
    { mutant: b!, status: 'Timeout' as const },
    { mutant: c!, status: 'Survived' as const },
    { mutant: d!, status: 'Survived' as const },
  ];

  it('leaves equivalent and unobservable survivors out of the kill rate and lists those without a verdict', () => {
    const report = summarise(outcomes, { [c!.key]: { verdict: 'equivalent', reason: 'same value either way' } });
    expect(report.total).toEqual({ mutants: 4, killed: 2, survived: 1, excused: 1 });
    expect(report.unjudged).toEqual([d]);
    const text = formatReport(report);
    expect(text).toContain(
      'kill rate over mutants a client can observe: 66.7 % (2 of 3; 1 equivalent, unobservable or unspecified, by the ledger)',
    );
    expect(text).toContain(`survivor without a verdict: ${d!.key}`);
  });

  it('counts a gap as a survivor until a check kills it', () => {
    const report = summarise(outcomes, { [c!.key]: { verdict: 'gap', reason: 'no check judges it yet' } });
    expect(report.total.survived).toBe(2);
    expect(report.gaps).toEqual([c]);
  });
});
