// The kit as a vitest suite: the same session the CLI's run loop drives, one test per planned
// check in plan order, then the coverage gate. The target is resolved lazily (a launcher may start
// it in beforeAll); what decides the plan (profile, whether a read key exists) must be known when
// the file is collected, and the session's plan is held to it.
import { writeFileSync } from 'node:fs';
import { loadDocument, type OpenApiDocument } from 'secmon-api/src/document';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { KitOptions, Profile } from '../src/kit/context.ts';
import { coverage, formatCoverage } from '../src/kit/coverage.ts';
import { type PlannedCheck, planChecks } from '../src/kit/plan.ts';
import type { CheckResult, KnownLimit } from '../src/kit/results.ts';
import { type KitSession, openKit } from '../src/kit/session.ts';
import { buildModel } from '../src/kit/spec.ts';

export interface SuiteOptions {
  name: string;
  profile: Profile;
  hasReadKey: boolean;
  /** Called in beforeAll: start the target, then return how to reach it. */
  target: () => KitOptions | Promise<KitOptions>;
  knownLimits?: KnownLimit[];
  /** Where to write the results as JSON (the CLI prints its summary from it). */
  resultsFile?: string;
  document?: OpenApiDocument;
  skipRateProbe?: string;
  /** An origin the target allows (the CORS check must then pass, not skip). */
  corsOrigin?: string;
  /** Why the retry waits are not judged (the target compresses its retry schedule). */
  skipRetryTiming?: string;
}

export function defineContractSuite(options: SuiteOptions): void {
  const document = options.document ?? loadDocument();
  const model = buildModel(document);
  const plan = planChecks(model, {
    profile: options.profile,
    hasReadKey: options.hasReadKey,
    ...(options.skipRateProbe ? { skipRateProbe: options.skipRateProbe } : {}),
    ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
    ...(options.skipRetryTiming ? { skipRetryTiming: options.skipRetryTiming } : {}),
  });
  let session: KitSession | undefined;

  // The checks run one after another on the target (they share its state), while the file's other
  // concurrent suites, on targets of their own, run beside them.
  describe(options.name, { concurrent: true }, () => {
    beforeAll(async () => {
      const target = await options.target();
      session = await openKit(
        {
          ...target,
          document,
          ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
          ...(options.skipRetryTiming ? { skipRetryTiming: options.skipRetryTiming } : {}),
        },
        {
          ...(options.knownLimits ? { knownLimits: options.knownLimits } : {}),
          ...(options.skipRateProbe ? { skipRateProbe: options.skipRateProbe } : {}),
        },
      );
      const planned = session.plan.map((p) => `${p.id}${p.skip ? ' (skipped)' : ''}`).join('\n');
      const expected = plan.map((p) => `${p.id}${p.skip ? ' (skipped)' : ''}`).join('\n');
      if (planned !== expected) throw new Error(`the target's options plan other checks than the suite declared:\n${planned}`);
    });
    afterAll(async () => {
      const run = await session?.finish();
      if (run && options.resultsFile) writeFileSync(options.resultsFile, JSON.stringify({ results: run.results }, null, 2));
    });

    for (const [index, planned] of plan.entries()) {
      it(planned.id, { concurrent: false }, async (test) => {
        const result = await session!.run(session!.plan[index]!);
        if (result.outcome === 'failed') throw new Error(result.error);
        if (result.outcome === 'skipped') test.skip(result.reason);
        if (result.outcome === 'known-limit') test.annotate(`known limit: ${result.reason}`);
      });
    }

    it('coverage gate: every operation and webhook has checks, none failed', { concurrent: false }, () => {
      const report = coverage(model, session?.results ?? []);
      const table = formatCoverage(report, `Contract coverage (${options.name})`);
      // Under the CLI (resultsFile set) the CLI prints the table once, after vitest's own report.
      if (!options.resultsFile) process.stdout.write(`\n${table}\n`);
      if (!report.passed) throw new Error(`coverage gate failed\n${table}`);
    });
  });
}

/** Every planned check as passed: what the coverage gate makes of a run where nothing failed. */
export function passedResults(plan: PlannedCheck[]): CheckResult[] {
  return plan.map((p) => ({
    id: p.id,
    check: p.check,
    subjects: p.subjects,
    exercisesSuccess: p.exercisesSuccess,
    outcome: 'passed',
    ms: 0,
  }));
}
