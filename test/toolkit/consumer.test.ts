// An outside TypeScript project (examples/consumer, its own tsconfig) compiles against the
// package's exports, and code that misuses the contract does not.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/pipeline.ts';

const TSC = join(root, 'node_modules/typescript/bin/tsc');
const misuseDir = join(root, 'examples/consumer/misuse');

function tsc(project: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [TSC, '--noEmit', '--pretty', 'false', '-p', project], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('examples/consumer type-checks against the package exports', () => {
  it('tsc --noEmit -p examples/consumer exits 0', { timeout: 120_000 }, () => {
    const { status, output } = tsc('examples/consumer');
    expect(output).toBe('');
    expect(status).toBe(0);
  });

  it('imports the toolkit by package name only', () => {
    for (const file of ['client.ts', 'receiver.ts']) {
      const source = readFileSync(join(root, 'examples/consumer', file), 'utf8');
      const specifiers = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1]!);
      expect(specifiers.filter((specifier) => specifier.startsWith('.'))).toEqual([]);
      expect(specifiers.some((specifier) => specifier.startsWith('secmon-api'))).toBe(true);
    }
  });

  describe('misuse is rejected where it happens', () => {
    const files = readdirSync(misuseDir).filter((file) => file.endsWith('.ts'));
    let result: ReturnType<typeof tsc> | undefined;
    const compiled = () => (result ??= tsc('examples/consumer/misuse'));

    it('has a file per kind of misuse', () => {
      expect(files.sort()).toEqual(['wrong-body-field.ts', 'wrong-enum-value.ts', 'wrong-event-field.ts', 'wrong-path.ts']);
    });

    for (const file of files) {
      it(`${file} fails to type-check at its marked line, naming the culprit`, { timeout: 120_000 }, () => {
        const lines = readFileSync(join(misuseDir, file), 'utf8').split('\n');
        const marked = lines.findIndex((line) => line.includes('// error: '));
        expect(marked).toBeGreaterThanOrEqual(0);
        const culprit = lines[marked]!.split('// error: ')[1]!.trim();
        const { status, output } = compiled();
        expect(status).not.toBe(0);
        const errors = output.split('\n').filter((line) => line.startsWith(`examples/consumer/misuse/${file}(`));
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatch(new RegExp(`^examples/consumer/misuse/${file}\\(${marked + 1},\\d+\\): error TS\\d+`));
        expect(errors[0]).toContain(culprit);
      });
    }
  });
});
