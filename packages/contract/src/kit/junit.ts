// The kit's results as JUnit XML, the format every CI shows as test results: one <testcase> per
// (operation, check), grouped by operationId or webhook name (`classname`, the name the console
// shows first) and named by the check, with no URL in either, so results keep their identity across
// environments; a failure's message is its headline (rule, sentence, observed against expected), its
// type the rule id, its body the details, where else the fault was seen, and the replay; a skipped
// check or a known limit says why. A testcase's time is the check's own: what it waited for the
// target's quota is reported beside it.
import { faultsOf, reportedUnder, seenLine } from './faults.ts';
import type { CheckResult } from './results.ts';

// XML 1.0 forbids most control characters even when escaped; a response body may contain them.
const INVALID_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeXml = (text: string) => text.replace(INVALID_XML, '\uFFFD').replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** `getPolicy (GET /v1/policies/{id})` → getPolicy; `findingCreated (webhook finding.created)` → findingCreated, as on the console. */
const subjectName = (label: string) => label.split(' ')[0]!;

interface TestCase {
  classname: string;
  name: string;
  seconds: number;
  waitedMs?: number | undefined;
  failure?: { message: string; type: string; body: string };
  skipped?: { message: string; body?: string };
}

/**
 * The testcases: one per (operation, check). A fault fails the testcase of the operation whose
 * answers show it (the check that saw it there), once, however many checks and cases saw it; a
 * check that failed only on faults of another operation is skipped, saying where that fault is.
 */
function testCases(results: readonly CheckResult<string>[]): TestCase[] {
  const faults = faultsOf(results);
  const under = reportedUnder(faults);
  const cases = new Map<string, TestCase>();
  const key = (classname: string, name: string) => `${classname}\u0000${name}`;
  for (const result of results) {
    const base = { classname: subjectName(result.subjects[0]!), name: result.check, seconds: result.ms / 1000, waitedMs: result.waitedMs };
    const known = result.outcome === 'known-limit' ? `known limit: ${result.reason ?? ''}` : undefined;
    if (result.outcome === 'skipped' || known)
      cases.set(key(base.classname, base.name), { ...base, skipped: { message: known ?? result.reason ?? '', body: result.error ?? '' } });
    else if (result.outcome === 'passed') cases.set(key(base.classname, base.name), base);
    else if (!under.has(result.id)) {
      const elsewhere = faults.find((fault) => fault.seen.some((s) => s.id === result.id))!;
      const message = `saw a fault of ${subjectName(elsewhere.operation)}, reported there: ${elsewhere.headline}`;
      cases.set(key(base.classname, base.name), { ...base, skipped: { message } });
    }
  }
  for (const mine of under.values()) {
    const result = mine[0]!.result;
    const classname = subjectName(mine[0]!.operation);
    const replay = result.reproduction ? `\n\nReproduction (${result.reproduction.runner}):\n${result.reproduction.script}` : '';
    const headline = mine.length > 1 ? `${mine[0]!.headline} (and ${mine.length - 1} more)` : mine[0]!.headline;
    const failure = {
      // The version a rule arrived in belongs in the message too: a dashboard shows only the message.
      message: result.newIn ? `${headline} — ${result.newIn}` : headline,
      type: [...new Set(mine.map((fault) => fault.violation.rule ?? 'schema'))].join(' '),
      body: `${[...mine.flatMap((fault) => [fault.headline, seenLine(fault)]), '', result.error ?? 'failed'].join('\n')}${replay}`,
    };
    // A fault of another operation than the check's own is that operation's failure: its testcase, not the check's.
    const own = key(subjectName(result.subjects[0]!), result.check);
    if (classname !== subjectName(result.subjects[0]!))
      cases.set(own, {
        classname: subjectName(result.subjects[0]!),
        name: result.check,
        seconds: result.ms / 1000,
        skipped: { message: `saw a fault of ${classname}, reported there: ${failure.message}` },
      });
    const at = key(classname, result.check);
    const { skipped: _replaced, ...existing } = cases.get(at) ?? { classname, name: result.check, seconds: result.ms / 1000 };
    cases.set(at, { ...existing, failure });
  }
  return [...cases.values()];
}

function testCaseXml(tc: TestCase): string {
  const open = `    <testcase classname="${escapeXml(tc.classname)}" name="${escapeXml(tc.name)}" time="${tc.seconds.toFixed(3)}"`;
  const waited = tc.waitedMs
    ? `\n      <system-out>${escapeXml(`waited ${(tc.waitedMs / 1000).toFixed(1)} s for the target's quota (not in time)`)}</system-out>`
    : '';
  if (tc.failure)
    return `${open}>\n      <failure message="${escapeXml(tc.failure.message)}" type="${escapeXml(tc.failure.type)}">${escapeXml(tc.failure.body)}</failure>${waited}\n    </testcase>`;
  if (tc.skipped) {
    const body = tc.skipped.body ? `>${escapeXml(tc.skipped.body)}</skipped>` : '/>';
    return `${open}>\n      <skipped message="${escapeXml(tc.skipped.message)}"${body}${waited}\n    </testcase>`;
  }
  return waited ? `${open}>${waited}\n    </testcase>` : `${open}/>`;
}

export function junitReport(suiteName: string, results: CheckResult<string>[], seconds: number, waitedMs = 0): string {
  const cases = testCases(results);
  const failures = cases.filter((tc) => tc.failure).length;
  const skipped = cases.filter((tc) => tc.skipped).length;
  const totals = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds.toFixed(3)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="secmon-contract" ${totals}>`,
    `  <testsuite name="${escapeXml(suiteName)}" ${totals}>`,
    // The run's wall time includes waiting for the quota; the testcases' times do not.
    `    <properties>\n      <property name="quota-wait-seconds" value="${(waitedMs / 1000).toFixed(3)}"/>\n    </properties>`,
    ...cases.map(testCaseXml),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
