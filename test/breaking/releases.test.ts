// Released means frozen: each bundle under openapi/releases/ is pinned by SHA256SUMS beside it, so
// editing a released contract (as once happened to 1.0.0, when two problem types were added to its
// snapshot) fails here before anyone is judged against a changed promise.
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../packages/api/src/document.ts';
import { listReleases, newestRelease, releaseProblems } from '../../scripts/breaking/releases.ts';
import { root } from '../../scripts/pipeline.ts';

const releases = join(root, 'openapi/releases');
const scratch = mkdtempSync(join(tmpdir(), 'releases-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const copyOfReleases = (name: string) => {
  const dir = join(scratch, name);
  cpSync(releases, dir, { recursive: true });
  return dir;
};
const read = (file: string) => JSON.parse(readFileSync(join(releases, file), 'utf8'));

describe('openapi/releases/', () => {
  it('holds 1.0.0 and 1.1.0, each matching its committed checksum and its file name', () => {
    expect(listReleases(releases).map((release) => release.version)).toEqual(['1.0.0', '1.1.0']);
    expect(releaseProblems(releases)).toEqual([]);
    expect(newestRelease(releases).endsWith('v1.1.0.json')).toBe(true);
  });

  it('holds 1.0.0 as it was released: without what was added to its snapshot or its document later', () => {
    const v100 = read('v1.0.0.json');
    const v110 = read('v1.1.0.json');
    for (const type of ['malformed-request', 'headers-too-large']) {
      expect(v100.info.description).not.toContain(`\`${type}\``);
      expect(v110.info.description).toContain(`\`${type}\``);
    }
    const names = (doc: any) => doc.webhooks['finding.created'].post.parameters.map((p: any) => p.$ref ?? p.name);
    expect(names(v100)).not.toContain('#/components/parameters/StandardIdHeader');
    expect(names(v110)).toContain('#/components/parameters/StandardIdHeader');
    expect(v100.paths['/v1/policies'].get.responses['503']).toBeUndefined();
  });

  it('the packages and the document are at the newest release', () => {
    expect(loadDocument().info.version).toBe(listReleases(releases).at(-1)!.version);
  });

  it.each(['v1.0.0.json', 'v1.1.0.json'])('fails when %s is edited, even by one problem type', (file) => {
    const dir = copyOfReleases(`edited-${file}`);
    const doc = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    doc.info.description += '\n| `teapot` | 418 | Never. |';
    writeFileSync(join(dir, file), JSON.stringify(doc, null, 2));
    expect(releaseProblems(dir)).toEqual([
      `${file} changed after its release (its SHA-256 is not the one in SHA256SUMS); a released version is never edited`,
    ]);
  });

  it('fails when a release is removed, added without a checksum, or named for another version', () => {
    const removed = copyOfReleases('removed');
    unlinkSync(join(removed, 'v1.0.0.json'));
    expect(releaseProblems(removed)).toEqual(['v1.0.0.json is in SHA256SUMS but missing: a release is never removed']);
    const unrecorded = copyOfReleases('unrecorded');
    writeFileSync(join(unrecorded, 'v1.2.0.json'), JSON.stringify({ info: { version: '1.2.0' } }));
    expect(releaseProblems(unrecorded)).toEqual(['v1.2.0.json has no checksum in SHA256SUMS: record it when releasing']);
    const misnamed = copyOfReleases('misnamed');
    writeFileSync(join(misnamed, 'v1.3.0.json'), readFileSync(join(releases, 'v1.1.0.json')));
    expect(releaseProblems(misnamed)).toContain('v1.3.0.json says info.version "1.1.0"');
  });
});
