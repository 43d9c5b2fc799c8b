// The kit's reports say the same thing everywhere: an interrupted run, JUnit beside the console
// table, and the README beside --help.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createKitContext } from '../src/kit/context.ts';
import { coverage as coverageOf, formatCoverage } from '../src/kit/coverage.ts';
import { junitReport } from '../src/kit/junit.ts';
import { planChecks } from '../src/kit/plan.ts';
import { runKit } from '../src/kit/runner.ts';
import { cli } from './ci-support.ts';
import { startReferenceTarget } from './reference-target.ts';

describe('reports', () => {
  it('an interrupted run names the checks that did not run because of it, not as gaps of the document', async () => {
    const target = await startReferenceTarget();
    onTestFinished(() => target.server.close());
    const controller = new AbortController();
    const run = await runKit(
      { ...target.kit, events: 'skip' },
      {
        signal: controller.signal,
        onResult: (_result, done) => {
          if (done === 3) controller.abort();
        },
      },
    );
    expect(run.interrupted).toBe(true);
    const notRun = run.results.filter((r) => r.reason === 'not run: the run was interrupted before it');
    expect(notRun.length).toBe(run.results.length - 3);
    expect(run.table).not.toContain('GAP');
    expect(run.table).toContain(`✗ the run was interrupted: ${notRun.length} checks did not run`);
    expect(run.coverage.passed).toBe(false);
  }, 60_000);

  it('JUnit names each check as the console does, and the table has a legend for its columns', () => {
    const ctx = createKitContext({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', profile: 'stateful' });
    const plan = planChecks(ctx.model, { profile: 'stateful', hasReadKey: false });
    const results = plan.map((p) => ({
      id: p.id,
      check: p.check,
      subjects: p.subjects,
      exercisesSuccess: p.exercisesSuccess,
      outcome: 'passed' as const,
      ms: 1,
    }));
    const xml = junitReport('names', results, 1);
    for (const result of results) {
      const [subject, check] = result.id.split(' › ');
      expect(xml).toContain(`<testcase classname="${subject!.split(' ')[0]}" name="${check}"`);
    }
    const table = runTableOf(ctx.model, results);
    expect(table).toMatch(
      /Columns: ok = success-response, valid = valid-input, .*401key = unknown-key-401.*gone = use-after-delete.*avail = available-after-create|Columns: .*avail = available-after-create.*gone = use-after-delete/,
    );
  });

  it('every option of --help is in the kit README with an example', async () => {
    const help = await cli(['--help']);
    const options = [...new Set([...help.stdout.matchAll(/^\s+(--[a-z-]+)/gm)].map((m) => m[1]!))];
    expect(options.length).toBeGreaterThan(15);
    const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
    const examples = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n');
    expect(options.filter((option) => !new RegExp(`${option}(?![a-z-])`).test(examples))).toEqual([]);
  });
});

function runTableOf(model: Parameters<typeof coverageOf>[0], results: Parameters<typeof coverageOf>[1]): string {
  return formatCoverage(coverageOf(model, results));
}
