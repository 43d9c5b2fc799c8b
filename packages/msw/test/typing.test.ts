// Scenarios and overrides are checked by the compiler: fixtures that use them right compile, and
// each misuse (an undocumented status or example, an unknown operation, an override answering a
// shape the document does not give) fails `tsc` on its own line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../../../scripts/pipeline.ts';

const ENTRY = join(root, 'packages/msw/src/index.ts');
const POLICY = `{ id: params.id, name: 'Disk encryption', description: '', severity: 'high', enabled: true, frameworks: [], rule: null,
  compliance_status: 'compliant', version: 1, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }`;

const FIXTURES: Record<string, string> = {
  right: `mock.scenario('getPolicy', { code: 404 });
mock.scenario('getPolicy', { code: 200, example: 'compliant' });
mock.scenario('listFindings', { example: 'empty' });
mock.scenario('listFindings', { code: 429, headers: { 'Retry-After': '30' } });
mock.override('getPolicy', ({ params }) => ({ status: 200, body: ${POLICY} }));
mock.override('deletePolicy', () => ({ status: 204 }));`,
  'wrong-shape': `mock.override('getPolicy', ({ params }) => ({ status: 200, body: { ...${POLICY}, severity: 'urgent' } }));`,
  'missing-field': `mock.override('listFindings', () => ({ status: 200, body: { data: [] } }));`,
  'undocumented-status': `mock.scenario('getPolicy', { code: 409 });`,
  'unknown-example': `mock.scenario('getPolicy', { example: 'archived' });`,
  'example-of-another-status': `mock.scenario('getPolicy', { code: 404, example: 'compliant' });`,
  'unknown-operation': `mock.scenario('getDevice', { code: 404 });`,
};

const scratch = mkdtempSync(join(tmpdir(), 'secmon-msw-typing-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function compile(): string {
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ type: 'module' }));
  for (const [name, body] of Object.entries(FIXTURES)) {
    writeFileSync(join(scratch, `${name}.ts`), `import { createSecmonMsw } from '${ENTRY}';\nconst mock = createSecmonMsw();\n${body}\n`);
  }
  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({
      extends: join(root, 'tsconfig.json'),
      compilerOptions: { typeRoots: [join(root, 'node_modules/@types')] },
      include: [],
      files: Object.keys(FIXTURES).map((name) => `${name}.ts`),
    }),
  );
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', scratch], { encoding: 'utf8' });
  return tsc.stdout + tsc.stderr;
}

describe('typed scenarios and overrides', () => {
  const output = compile();
  const errorsIn = (name: string) => output.split('\n').filter((line) => line.startsWith(`${name}.ts(`) || line.includes(`/${name}.ts(`));

  it('documented choices and documented shapes compile', () => {
    expect(errorsIn('right')).toEqual([]);
  });

  it.each(Object.keys(FIXTURES).filter((name) => name !== 'right'))('%s fails tsc on the line that uses it', (name) => {
    const errors = errorsIn(name);
    expect(errors.length, output).toBeGreaterThan(0);
    expect(
      errors.every((line) => /\.ts\(3,/.test(line)),
      errors.join('\n'),
    ).toBe(true);
  });
});
