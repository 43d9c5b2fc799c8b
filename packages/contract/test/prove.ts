// Proving a rule: the reference server behind a fault proxy that breaks exactly that rule, the one
// check that judges it run alone against the proxy, and the failure must name the rule with its
// sentence. Proof files (packages/contract/test/proofs/) declare their proofs as data and call proveRules.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../../../server/config.ts';
import type { KitOptions } from '../src/kit/context.ts';
import { type CheckName, definitionOf } from '../src/kit/registry.ts';
import { writeReproductions } from '../src/kit/repro-files.ts';
import type { CheckResult } from '../src/kit/results.ts';
import { CATALOGUE, type RuleId } from '../src/kit/rules/catalogue.ts';
import { runKit } from '../src/kit/runner.ts';
import type { Violation } from '../src/kit/violation.ts';
import { type Fault, startFaultProxy } from './fault-proxy.ts';
import { type ReferenceTarget, startReferenceTarget, targetPool } from './reference-target.ts';
import { runReplay } from './replay-run.ts';

// A file's proofs wait mostly on deliveries and time-outs: they run concurrently, two at a time (two
// reference servers, each held by one proof while it runs). A proof's time-out counts its wait
// for a server as well.
const TARGETS = 2;
const PROOF_TIMEOUT_MS = 180_000;

/** A proof's fault: itself, or a fresh one when it keeps state. */
export const madeFault = (fault: Fault | (() => Fault)): Fault => (typeof fault === 'function' ? fault() : fault);

export interface RuleProof {
  /** What the faulty implementation does, in a few words. */
  name: string;
  /** A function when the fault keeps state (a fresh one per proof). */
  fault: Fault | (() => Fault);
  /** The operation or webhook label the check is run for, as the plan names it. */
  subject: string;
  check: CheckName;
  rule: RuleId;
  options?: Partial<KitOptions>;
  /** A reference server of its own, configured otherwise (a low limit, the documented retry schedule), instead of the file's. */
  target?: { retryScale?: number; overrides?: Partial<Config> };
}

/**
 * A rule's proof as a family: one fault generated along an axis of the behaviour space the rule
 * covers (every class of answer, every resource), each member breaking the rule in one cell only.
 */
export interface RuleFamily {
  rule: RuleId;
  check: CheckName;
  subject: string;
  /** The axis the members are generated along, for the report. */
  axis: string;
  /** Each cell's fault; `subject` when the cell belongs to another operation than the family's. */
  members: { cell: string; fault: Fault | (() => Fault); subject?: string }[];
  options?: Partial<KitOptions>;
}

/**
 * Runs one check of one operation or webhook through a faulty proxy; it must fail: returns its
 * report. With `replayAlone`, its replay is also run on its own (expectReplayed).
 */
export async function failureUnder(
  target: ReferenceTarget,
  fault: Fault,
  subject: string,
  check: CheckName,
  options: Partial<KitOptions> = {},
  replayAlone = false,
): Promise<string> {
  const proxy = await startFaultProxy(target.server.url, fault);
  try {
    const run = await runKit(
      { ...target.kit, baseUrl: proxy.url, eventTimeoutMs: 5_000, ...options },
      { only: (planned) => planned.subjects[0] === subject && planned.check === check },
    );
    expect(run.results.map((r) => [r.check, r.outcome])).toEqual([[check, 'failed']]);
    expectReproduction(run.results[0]!, [target.kit.apiKey, target.kit.readKey!]);
    // A rule a check can break is one its definition says it judges (what --rules and the gate count),
    // or, for what its rules do not speak of, the sentence that quotes the field or parameter it found.
    const judged: readonly string[] = definitionOf(check).rules;
    const quotes = (v: Violation) => v.subject?.what !== undefined && (v.sentence ?? '').includes(`\`${v.subject.what}\``);
    expect(run.results[0]!.violations!.flatMap((v) => (v.rule && !judged.includes(v.rule) && !quotes(v) ? [v.rule] : []))).toEqual([]);
    if (replayAlone) await expectReplayed(run.results[0]!, fault);
    return run.results[0]!.error!;
  } finally {
    await proxy.close();
  }
}

/** A failure carries a replay of the requests that led to it, with the keys as variables, never their values. */
function expectReproduction(result: CheckResult, keys: string[]): void {
  const { script, runner, http } = result.reproduction!;
  if (runner === 'sh') expect(script).toMatch(/^send 1 \d{3} [A-Z]+ /m);
  else expect(script).toMatch(/^const STEPS = \[\n \{\n {2}"step": 1,/m);
  // Before the first request: httpyac's set-up block, the pre-request script making fresh Idempotency-Keys, or both.
  // Matched from the first step's line on: tried at every line of a long replay, the pattern's lazy
  // blocks cost seconds of CPU per test file.
  const first = http.search(/^# @name step1\n/m);
  expect(first, http).toBeGreaterThanOrEqual(0);
  expect(http.slice(first)).toMatch(/^# @name step1\n(\{\{\n[\s\S]*?\n\}\}\n|< \{%\n[\s\S]*?\n%\}\n)*[A-Z]+ \{\{baseUrl\}\}\//);
  for (const key of keys) expect(`${script}${http}`).not.toContain(key);
}

/**
 * A failure's replay, written as the CLI writes it and run on its own against freshly started
 * targets, as a team would run it later (what the run left behind, such as the idempotency keys it
 * used, is not there): with `fault` it says "reproduced" (exit 1), without "not reproduced" (exit 0).
 */
export async function expectReplayed(result: CheckResult, fault: Fault): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'replay-'));
  const target = await startReferenceTarget();
  const proxy = await startFaultProxy(target.server.url, fault);
  try {
    const [file] = writeReproductions(dir, [result]).values();
    const { runner } = result.reproduction!;
    const faulty = await runReplay(file!, runner, proxy.url, target.kit);
    expect(faulty.stdout, faulty.stdout).toMatch(/^reproduced: \S/m);
    expect(faulty.code, faulty.stdout).toBe(1);
    const correct = await runReplay(file!, runner, target.server.url, target.kit);
    expect(correct.stdout, correct.stdout).toMatch(/^not reproduced$/m);
    expect(correct.code, correct.stdout).toBe(0);
  } finally {
    await proxy.close();
    await target.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The failure's headline names the check and the rule, and the report quotes the rule's sentence. */
export function expectRuleNamed(error: string, check: CheckName, rule: RuleId): void {
  expect(error.split('\n')[0]).toMatch(
    new RegExp(`check "${check}" failed \\(breaks rule ([\\w.-]+(, |; also ))*${rule.replace(/\./g, '\\.')}(, |; |\\))`),
  );
  const sentence = CATALOGUE.find((entry) => entry.id === rule)!.text;
  expect(error).toContain(`rule ${rule} (`);
  expect(error).toContain(sentence.slice(0, 60));
}

async function underOwnTarget(proof: RuleProof, fault: Fault, replayAlone: boolean): Promise<string> {
  const target = await startReferenceTarget(undefined, proof.target?.retryScale, proof.target?.overrides);
  try {
    return await failureUnder(target, fault, proof.subject, proof.check, proof.options, replayAlone);
  } finally {
    await target.server.close();
  }
}

/**
 * One test per proof, all against one reference server started for the file (or one of its own,
 * `target`); the proof named `replayed` (the family's sample) also runs its failure's replay on its own.
 */
export function proveRules(title: string, proofs: readonly RuleProof[], replayed?: string): void {
  if (replayed !== undefined && !proofs.some((proof) => proof.name === replayed)) throw new Error(`no proof named ${replayed}`);
  const targets = targetPool(TARGETS);
  afterAll(() => targets.close());
  // A fault that breaks several rules fails the same run for each: the run is made once, and each
  // rule's test reads its report.
  const runs: { proof: RuleProof; failure: Promise<string> }[] = [];
  const failureOf = (proof: RuleProof): Promise<string> => {
    const same = runs.find(
      (run) =>
        run.proof.fault === proof.fault &&
        run.proof.subject === proof.subject &&
        run.proof.check === proof.check &&
        run.proof.options === proof.options,
    );
    if (same) return same.failure;
    const fault = madeFault(proof.fault);
    const alone = proof.name === replayed;
    const failure = proof.target
      ? underOwnTarget(proof, fault, alone)
      : targets.use((reference) => failureUnder(reference, fault, proof.subject, proof.check, proof.options, alone));
    runs.push({ proof, failure });
    return failure;
  };
  describe.concurrent(title, () => {
    for (const proof of proofs) {
      const alone = proof.name === replayed ? '; its replay alone reproduces it' : '';
      it(
        `${proof.name}: ${proof.check} names rule ${proof.rule}${alone}`,
        async () => {
          expectRuleNamed(await failureOf(proof), proof.check, proof.rule);
        },
        PROOF_TIMEOUT_MS,
      );
    }
  });
}

/**
 * One test per member of each family, against one reference server for the file; after them, per
 * rule, how many members of its family the kit killed.
 */
export function proveFamilies(title: string, families: readonly RuleFamily[]): void {
  const targets = targetPool(TARGETS);
  const killed = new Map<RuleFamily, string[]>(families.map((family) => [family, []]));
  afterAll(async () => {
    await targets.close();
    const lines = families.map(
      (family) => `${family.rule} along ${family.axis} (${family.check}): ${killed.get(family)!.length} of ${family.members.length} killed`,
    );
    process.stdout.write(`proofs by family:\n  ${lines.join('\n  ')}\n`);
  });
  describe.concurrent(title, () => {
    for (const family of families)
      for (const member of family.members)
        it(
          `${family.rule} along ${family.axis}, ${member.cell}: ${family.check} names it`,
          async () => {
            const fault = madeFault(member.fault);
            const failure = await targets.use((reference) =>
              failureUnder(reference, fault, member.subject ?? family.subject, family.check, family.options),
            );
            expectRuleNamed(failure, family.check, family.rule);
            killed.get(family)!.push(member.cell);
          },
          PROOF_TIMEOUT_MS,
        );
  });
}
