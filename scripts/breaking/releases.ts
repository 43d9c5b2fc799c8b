// The released documents under openapi/releases/: one bundle per version, `v<version>.json`,
// never edited once committed. SHA256SUMS beside them (the format `sha256sum -c` reads) pins each
// bundle's bytes, so an edit to a released contract is caught by a test and by the gate instead of
// silently changing what a version number promises.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareVersions } from '../../common/semver.ts';

export const CHECKSUMS_FILE = 'SHA256SUMS';

export interface Release {
  version: string;
  file: string;
  path: string;
}

/** Every released bundle in `dir`, oldest first. */
export function listReleases(dir: string): Release[] {
  return readdirSync(dir)
    .map((file) => ({ file, match: /^v(\d+\.\d+\.\d+)\.json$/.exec(file) }))
    .filter((entry): entry is { file: string; match: RegExpExecArray } => entry.match !== null)
    .map(({ file, match }) => ({ version: match[1]!, file, path: join(dir, file) }))
    .sort((a, b) => compareVersions(a.version, b.version));
}

/** The released bundle with the highest version. */
export function newestRelease(dir: string): string {
  const releases = listReleases(dir);
  if (releases.length === 0) throw new Error(`no released document in ${dir}`);
  return releases.at(-1)!.path;
}

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The committed list: file name → hex digest. */
export function readChecksums(dir: string): Map<string, string> {
  const path = join(dir, CHECKSUMS_FILE);
  if (!existsSync(path)) return new Map();
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  return new Map(lines.map((line) => /^([0-9a-f]{64}) [ *](.+)$/.exec(line)).flatMap((m) => (m ? [[m[2]!, m[1]!] as const] : [])));
}

/**
 * What is wrong with the released bundles in `dir`: a bundle whose bytes differ from its committed
 * checksum (edited after release), a bundle with no checksum (not recorded as released), a checksum
 * with no bundle (a release deleted), a bundle whose `info.version` is not its file name's.
 */
export function releaseProblems(dir: string): string[] {
  const sums = readChecksums(dir);
  const problems: string[] = [];
  const releases = listReleases(dir);
  for (const release of releases) {
    const bytes = readFileSync(release.path);
    const expected = sums.get(release.file);
    if (expected === undefined) problems.push(`${release.file} has no checksum in ${CHECKSUMS_FILE}: record it when releasing`);
    else if (sha256(bytes) !== expected)
      problems.push(
        `${release.file} changed after its release (its SHA-256 is not the one in ${CHECKSUMS_FILE}); a released version is never edited`,
      );
    const version = (JSON.parse(bytes.toString('utf8')) as { info?: { version?: unknown } }).info?.version;
    if (version !== release.version) problems.push(`${release.file} says info.version ${JSON.stringify(version)}`);
  }
  for (const file of sums.keys())
    if (!releases.some((release) => release.file === file))
      problems.push(`${file} is in ${CHECKSUMS_FILE} but missing: a release is never removed`);
  return problems;
}
