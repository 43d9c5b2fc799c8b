// Judging a target by the version of the contract it implements (`--contract-version`, default the
// newest the kit carries): what a violation breaks applies since some version (versions.ts); a
// violation of something newer than the target's version is not a failure of that target, and a
// failure of something newer than the oldest version says which version introduced it, so a team
// whose CI turns red on a new kit sees the new obligation and the version that brought it.

import type { OpenApiDocument } from 'secmon-api/src/document';
import { compareVersions } from '../../../../common/semver.ts';
import type { RuleScope } from './rules/trace.ts';
import { type ContractVersions, contractVersions, ruleInVersion, violationSince } from './versions.ts';
import type { Violation } from './violation.ts';

export interface VersionJudge {
  versions: ContractVersions;
  /** The version the target is judged against. */
  target: string;
}

/** The judge for `target` (default: the newest version); throws naming the versions when it is not one of them. */
export function versionJudge(document: OpenApiDocument, target?: string): VersionJudge {
  const versions = contractVersions(document);
  const chosen = target ?? versions.versions.at(-1)!;
  if (!versions.versions.includes(chosen))
    throw new Error(`--contract-version ${chosen}: this kit judges versions ${versions.versions.join(', ')}`);
  return { versions, target: chosen };
}

/** The rules the judged version states: a rule sentence newer than the target is not part of it. */
export function versionScope(judge: VersionJudge): RuleScope {
  return { target: judge.target, includes: (rule) => ruleInVersion(judge.versions.since(rule.at, rule.text), judge.target) };
}

export interface JudgedViolations {
  /** Violations of the target's version, each with the version it applies since when that is not the oldest. */
  judged: { violation: Violation; newIn?: string }[];
  /** Violations of what a version after the target's introduced: not failures of this target. */
  notInTarget: { violation: Violation; since: string }[];
}

export function judgeViolations(judge: VersionJudge, violations: readonly Violation[]): JudgedViolations {
  const oldest = judge.versions.versions[0]!;
  const out: JudgedViolations = { judged: [], notInTarget: [] };
  for (const violation of violations) {
    const since = violationSince(judge.versions, violation);
    if (since && !ruleInVersion(since, judge.target)) out.notInTarget.push({ violation, since });
    else out.judged.push({ violation, ...(since && compareVersions(since, oldest) > 0 ? { newIn: since } : {}) });
  }
  return out;
}

const what = (violation: Violation) => (violation.rule ? `rule ${violation.rule}` : (violation.pointer ?? violation.check));

/** `new in 1.1.0: rule delivery-headers.8, #/components/parameters/StandardIdHeader/schema`, one clause per version. */
export function newInClause(items: readonly { violation: Violation; newIn?: string; since?: string }[]): string {
  const byVersion = new Map<string, string[]>();
  for (const item of items) {
    const version = item.newIn ?? item.since;
    if (version) byVersion.set(version, [...new Set([...(byVersion.get(version) ?? []), what(item.violation)])]);
  }
  return [...byVersion]
    .sort(([a], [b]) => compareVersions(a, b))
    .map(([version, names]) => `new in ${version}: ${names.join(', ')}`)
    .join('; ');
}
