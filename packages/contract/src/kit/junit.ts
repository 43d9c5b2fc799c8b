// The kit's results as JUnit XML, the format every CI shows as test results: one <testcase> per
// check, grouped by operationId or webhook name (`classname`, the name the console shows first) and
// named by the check, with no URL in either, so results keep their identity across environments; a
// failure carries the full report and the ids of the rules it breaks (`type`), a skipped check or a
// known limit says why. A testcase's time is
// the check's own: what it waited for the target's quota is reported beside it.
import type { CheckResult } from './results.ts';

// XML 1.0 forbids most control characters even when escaped; a response body may contain them.
const INVALID_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeXml = (text: string) => text.replace(INVALID_XML, '\uFFFD').replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** `getPolicy (GET /v1/policies/{id})` → getPolicy; `findingCreated (webhook finding.created)` → findingCreated, as on the console. */
const subjectName = (label: string) => label.split(' ')[0]!;

export function junitReport(suiteName: string, results: CheckResult<string>[], seconds: number, waitedMs = 0): string {
  const count = (outcome: CheckResult<string>['outcome']) => results.filter((r) => r.outcome === outcome).length;
  const failures = count('failed');
  const skipped = count('skipped') + count('known-limit');
  const cases = results.map((result) => {
    const open = `    <testcase classname="${escapeXml(subjectName(result.subjects[0]!))}" name="${escapeXml(result.check)}" time="${(result.ms / 1000).toFixed(3)}"`;
    const waited = result.waitedMs
      ? `\n      <system-out>${escapeXml(`waited ${(result.waitedMs / 1000).toFixed(1)} s for the target's quota (not in time)`)}</system-out>`
      : '';
    switch (result.outcome) {
      case 'passed':
        return waited ? `${open}>${waited}\n    </testcase>` : `${open}/>`;
      case 'failed': {
        // The replay script travels with the failure, so a CI's test view is enough to reproduce it.
        const replay = result.reproduction ? `\n\nReproduction (sh):\n${result.reproduction.shell}` : '';
        const error = `${result.error ?? 'failed'}${replay}`;
        // The rules broken, from the violations themselves: what a CI can group failures by.
        const rules = [...new Set((result.violations ?? []).flatMap((v) => (v.rule ? [v.rule] : [])))];
        const type = rules.length > 0 ? ` type="${escapeXml(rules.join(' '))}"` : '';
        return `${open}>\n      <failure message="${escapeXml(error.split('\n')[0]!)}"${type}>${escapeXml(error)}</failure>${waited}\n    </testcase>`;
      }
      case 'skipped':
        return `${open}>\n      <skipped message="${escapeXml(result.reason ?? '')}"/>${waited}\n    </testcase>`;
      case 'known-limit':
        return `${open}>\n      <skipped message="${escapeXml(`known limit: ${result.reason ?? ''}`)}">${escapeXml(result.error ?? '')}</skipped>${waited}\n    </testcase>`;
    }
  });
  const totals = `tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds.toFixed(3)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="secmon-contract" ${totals}>`,
    `  <testsuite name="${escapeXml(suiteName)}" ${totals}>`,
    // The run's wall time includes waiting for the quota; the testcases' times do not.
    `    <properties>\n      <property name="quota-wait-seconds" value="${(waitedMs / 1000).toFixed(3)}"/>\n    </properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
