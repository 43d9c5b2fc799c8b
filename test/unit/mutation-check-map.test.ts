// The per-file mode of the mutation benchmark, without a server: which files a run's V8 coverage
// reached beyond a server that only starts, which file of Stryker's instrumented sources holds a
// mutant, when the stored check map is out of date, and which mutants the control finds the map missed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Candidate, instrument } from '../../bench/mutation/candidates.ts';
import { checksForFile, mapKey, readCheckMap } from '../../bench/mutation/check-map.ts';
import { formatControl, type ModeRun, missedKills } from '../../bench/mutation/control.ts';
import { type CoverageRange, filesReached, ranBeyond, type ScriptCoverage } from '../../bench/mutation/coverage.ts';
import { fileOfMutant } from '../../bench/mutation/mutant-file.ts';

const range = (startOffset: number, endOffset: number, count: number): CoverageRange => ({ startOffset, endOffset, count });
const script = (url: string, ...functions: CoverageRange[][]): ScriptCoverage => ({
  url,
  functions: functions.map((ranges) => ({ ranges })),
});

describe('what a check ran beyond start-up', () => {
  // A module of 0..1000: its top level runs at start-up; `handle` (100..400) holds a branch (200..300).
  const startUp = [[range(0, 1000, 1), range(100, 400, 0)]];

  it('counts a function start-up never called', () => {
    expect(ranBeyond([[range(0, 1000, 1), range(100, 400, 3)]], startUp)).toBe(true);
  });

  it('counts a block start-up skipped that V8 left out of the run because it ran as often as its function', () => {
    const baseline = [[range(0, 1000, 1), range(100, 400, 1), range(200, 300, 0)]];
    expect(ranBeyond([[range(0, 1000, 1), range(100, 400, 5)]], baseline)).toBe(true);
  });

  it('does not count code start-up ran too, however often the check ran it again', () => {
    const baseline = [[range(0, 1000, 1), range(100, 400, 1), range(200, 300, 0)]];
    expect(ranBeyond([[range(0, 1000, 1), range(100, 400, 9), range(200, 300, 0)]], baseline)).toBe(false);
  });

  it('does not count a function V8 lists with a count of 0', () => {
    expect(ranBeyond([[range(0, 1000, 1), range(100, 400, 0)]], startUp)).toBe(false);
  });

  it('counts what any thread that loaded the script ran', () => {
    expect(
      ranBeyond(
        [
          [range(0, 1000, 1), range(100, 400, 0)],
          [range(0, 1000, 1), range(100, 400, 2)],
        ],
        startUp,
      ),
    ).toBe(true);
  });

  it('names the files under the root, relative to it, and only those asked about', () => {
    const run = [
      script('file:///repo/server/routes/a.ts', [range(0, 50, 1)], [range(10, 40, 2)]),
      script('file:///repo/server/routes/b.ts', [range(0, 50, 1)]),
      script('file:///elsewhere/server/routes/c.ts', [range(0, 50, 1)], [range(10, 40, 2)]),
      script('node:internal/http', [range(0, 50, 1)], [range(10, 40, 2)]),
      script('file:///repo/server/main.ts', [range(0, 50, 1)], [range(10, 40, 2)]),
    ];
    const baseline = [
      script('file:///repo/server/routes/a.ts', [range(0, 50, 1)], [range(10, 40, 0)]),
      script('file:///repo/server/routes/b.ts', [range(0, 50, 1)]),
    ];
    expect(filesReached(run, baseline, '/repo', ['server/routes/a.ts', 'server/routes/b.ts', 'server/routes/c.ts'])).toEqual([
      'server/routes/a.ts',
    ]);
  });
});

describe("a mutant's file in Stryker's instrumented sources", () => {
  it('is the one holding the call that switches the mutant on, for every mutant the instrumenter made', async () => {
    const sources = [
      { name: 'server/a.ts', content: "export const f = (a: number) => (a > 1 ? 'x' : 'y');\n" },
      { name: 'server/b.ts', content: 'export function g(b: boolean, n: number) {\n  return b && n >= 10;\n}\n' },
    ];
    const { files, mutants } = await instrument(sources);
    const instrumented = files.map((f) => ({ file: f.name, content: f.content }));
    // Ten or more, so an id that is a prefix of another ("1" of "11") is among them.
    expect(mutants.length).toBeGreaterThanOrEqual(11);
    for (const mutant of mutants) expect(fileOfMutant(mutant.id, instrumented)).toBe(mutant.fileName);
    expect(fileOfMutant(String(mutants.length + 5), instrumented)).toBeUndefined();
  });
});

describe('the stored check map', () => {
  const sources = [
    { path: 'server/a.ts', content: 'one' },
    { path: 'packages/contract/src/b.ts', content: 'two' },
  ];

  it('keeps its key for the same sources in any order, and changes it with a file, its text or the seed', () => {
    const key = mapKey(sources, '1');
    expect(mapKey([...sources].reverse(), '1')).toBe(key);
    expect(mapKey([sources[0]!, { ...sources[1]!, content: 'two ' }], '1')).not.toBe(key);
    expect(mapKey([sources[0]!], '1')).not.toBe(key);
    expect(mapKey([{ path: 'server/a.tsone', content: '' }, sources[1]!], '1')).not.toBe(key);
    expect(mapKey(sources, '2')).not.toBe(key);
  });

  it('runs the whole kit (no checks named) without a readable map, or for a file no check reaches', () => {
    const dir = mkdtempSync(join(tmpdir(), 'check-map-'));
    try {
      const path = join(dir, 'check-map.json');
      expect(readCheckMap(path)).toBeUndefined();
      writeFileSync(path, '{"key": "k", "checks": ["cors"], "files": {"server/a.ts": "cors"}}');
      expect(readCheckMap(path)).toBeUndefined();
      writeFileSync(path, '{"key": "k", "checks": ["cors"], "files": {"server/a.ts": ["cors"], "server/b.ts": []}}');
      const map = readCheckMap(path);
      expect(checksForFile(map, 'server/a.ts')).toEqual(['cors']);
      expect(checksForFile(map, 'server/b.ts')).toBeUndefined();
      expect(checksForFile(map, 'server/c.ts')).toBeUndefined();
      expect(checksForFile(map, undefined)).toBeUndefined();
      expect(checksForFile(undefined, 'server/a.ts')).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the control', () => {
  const mutant = (line: number): Candidate => ({
    key: `server/a.ts:${line}:0:BooleanLiteral:false`,
    file: 'server/a.ts',
    folder: 'server',
    mutator: 'BooleanLiteral',
    replacement: 'false',
    start: { line, column: 0 },
    end: { line, column: 4 },
  });
  const [a, b, c] = [mutant(1), mutant(2), mutant(3)];
  const full: ModeRun = {
    outcomes: [
      { mutant: a, status: 'Killed' },
      { mutant: b, status: 'Timeout' },
      { mutant: c, status: 'Survived' },
    ],
    seconds: 90,
    runs: new Map([
      [a.key, { ms: 30_000, checks: 'all' }],
      [b.key, { ms: 20_000, checks: 'all' }],
      [c.key, { ms: 25_000, checks: 'all' }],
    ]),
  };
  const perFile: ModeRun = {
    outcomes: [
      { mutant: a, status: 'Killed' },
      { mutant: b, status: 'Survived' },
      { mutant: c, status: 'Survived' },
    ],
    seconds: 40,
    runs: new Map([
      [a.key, { ms: 10_000, checks: ['cors'] }],
      [b.key, { ms: 5_000, checks: ['delivery', 'idempotency'] }],
      [c.key, { ms: 30_000, checks: 'all' }],
    ]),
  };

  it('names every mutant the whole kit killed (a time-out too) and the per-file run did not, with the checks it ran', () => {
    expect(missedKills(full, perFile).map((o) => o.mutant)).toEqual([b]);
    expect(missedKills(full, full)).toEqual([]);
    const text = formatControl(full, perFile);
    expect(text).toContain(
      `killed by the whole kit and not per file (a check map defect): 1\n  ${b.key}\n    per file ran: delivery, idempotency`,
    );
    expect(text).toMatch(/^killed\s+2\s+1$/m);
    expect(text).toMatch(/^seconds per mutant \(kill\.ts, mean\)\s+25\.0\s+15\.0$/m);
    expect(text).toMatch(/^mutants that ran the whole kit\s+3\s+1$/m);
  });
});
