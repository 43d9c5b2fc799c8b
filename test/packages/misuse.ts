// The misuse folders of the examples: code that must not compile. Each file marks one line with
// `// error: <culprit>`; tsc must reject the file there, once, and name the culprit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Ran } from '../../scripts/outsider.ts';

/** Asserts that `result` (tsc over `misuse/tsconfig.json`) rejects `file` of `misuseDir` at its marked line only. */
export function expectRejectedAtMark(misuseDir: string, file: string, result: Ran): void {
  const lines = readFileSync(join(misuseDir, file), 'utf8').split('\n');
  const marked = lines.findIndex((line) => line.includes('// error: '));
  expect(marked).toBeGreaterThanOrEqual(0);
  const culprit = lines[marked]!.split('// error: ')[1]!.trim();
  expect(result.code).not.toBe(0);
  const errors = result.output.split('\n').filter((line) => line.startsWith(`misuse/${file}(`));
  expect(errors, result.output).toHaveLength(1);
  expect(errors[0]).toMatch(new RegExp(`^misuse/${file}\\(${marked + 1},\\d+\\): error TS\\d+`));
  expect(errors[0]).toContain(culprit);
}
