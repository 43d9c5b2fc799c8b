// One version, one contract: the revision's `info.version` against the newest release. A contract
// that changed (beyond rewording and examples) needs a new number, at least the step its changes
// need (bumpNeeded), and a new number needs its entry in the contract's changelog.

import { compareVersions, parseVersion } from '../../common/semver.ts';
import type { OpenApiDocument } from '../../packages/api/src/document.ts';
import { missingEntry } from './changelog.ts';
import type { ChangeReport } from './compare.ts';
import { BUMPS, type Bump, bumpNeeded, type ImplementationChange } from './obligations.ts';

export interface VersionVerdict {
  released: string;
  revision: string;
  /** The step the changes need, and the step the revision's version takes. */
  needed: Bump;
  taken: Bump;
  /** The smallest version that may carry the changes, when the revision's is not enough. */
  suggested?: string;
  /** Why the gate fails on versions or the changelog (empty when it does not). */
  problems: string[];
}

const withoutVersion = (doc: OpenApiDocument) => JSON.stringify({ ...doc, info: { ...doc.info, version: undefined } });

function stepBetween(released: string, revision: string): Bump {
  const [a, b] = [parseVersion(released)!, parseVersion(revision)!];
  if (b[0] !== a[0]) return 'major';
  if (b[1] !== a[1]) return 'minor';
  return b[2] !== a[2] ? 'patch' : 'none';
}

function nextVersion(released: string, bump: Bump): string {
  const [major, minor, patch] = parseVersion(released)!;
  if (bump === 'major') return `${major + 1}.0.0`;
  return bump === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
}

const ARTICLE: Record<Bump, string> = { none: 'no', patch: 'a patch', minor: 'a minor', major: 'a major' };

export interface VersionInput {
  base: OpenApiDocument;
  revision: OpenApiDocument;
  report: ChangeReport;
  implementations: ImplementationChange[];
  /** The contract's changelog (openapi/CHANGELOG.md), or undefined when there is none. */
  changelog: string | undefined;
}

export function versionVerdict({ base, revision, report, implementations, changelog }: VersionInput): VersionVerdict {
  const [released, version] = [base.info.version, revision.info.version];
  const needed = bumpNeeded(report, implementations, withoutVersion(base) !== withoutVersion(revision));
  const verdict: VersionVerdict = { released, revision: version, needed, taken: 'none', problems: [] };
  if (!parseVersion(version)) return { ...verdict, problems: [`info.version ${JSON.stringify(version)} is not major.minor.patch`] };
  if (compareVersions(version, released) < 0)
    return { ...verdict, problems: [`info.version ${version} is older than the newest release, ${released}`] };
  verdict.taken = stepBetween(released, version);
  // A break is reported by the breaking-change rules themselves: it needs /v2, not a number.
  // Rewording and new examples may ship under the released number; anything else may not.
  if (needed === 'minor' && BUMPS.indexOf(verdict.taken) < BUMPS.indexOf('minor')) {
    verdict.suggested = nextVersion(released, needed);
    verdict.problems.push(
      verdict.taken === 'none'
        ? `the contract differs from the released ${released} but info.version is still ${version}: these changes need ${ARTICLE[needed]} version, ${verdict.suggested}`
        : `info.version ${version} is ${ARTICLE[verdict.taken]} step from ${released}; these changes need ${ARTICLE[needed]} version, ${verdict.suggested}`,
    );
  }
  if (verdict.taken !== 'none') {
    const missing = changelog === undefined ? 'there is no openapi/CHANGELOG.md' : missingEntry(changelog, version);
    if (missing) verdict.problems.push(`the changelog of the contract (openapi/CHANGELOG.md) needs the entry for ${version}: ${missing}`);
  }
  return verdict;
}
