// The contract's changelog: a section per released version, each entry linked to its place on the
// docs page (an anchor the rendered page has) and naming JSON pointers that exist in the bundle of
// the version it describes; the page renders it as its "Changelog" section.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDocument, resolveRef } from '../../packages/api/src/document.ts';
import { changelogSections, missingEntry } from '../../scripts/breaking/changelog.ts';
import { listReleases } from '../../scripts/breaking/releases.ts';
import { CHANGELOG_FILE, changelogSection } from '../../scripts/docs/changelog.ts';
import { buildDocs, committed, root } from '../../scripts/pipeline.ts';

const scratch = mkdtempSync(join(tmpdir(), 'secmon-changelog-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const markdown = readFileSync(CHANGELOG_FILE, 'utf8');
const releases = listReleases(join(root, 'openapi/releases'));
const sections = changelogSections(markdown);
// A link into the page, `[text](#/section/browser-clients-(cors))`: one level of parentheses inside.
const LINK = /\]\((#\/(?:[^()\s]|\([^()\s]*\))+)\)/g;

describe('openapi/CHANGELOG.md', () => {
  it('has a section for every released version, newest first, each listing changes for clients and for implementations', () => {
    expect(sections.map((section) => section.version)).toEqual(releases.map((release) => release.version).reverse());
    for (const { version } of releases) expect(missingEntry(markdown, version)).toBeUndefined();
    expect(sections[0]!.version).toBe(loadDocument().info.version);
  });

  it('links every entry to the docs page, and each JSON pointer it names exists in that version', () => {
    for (const section of sections) {
      const bundle = JSON.parse(readFileSync(releases.find((release) => release.version === section.version)!.path, 'utf8'));
      for (const entry of [...section.clients, ...section.implementations]) {
        expect(entry, 'an entry without a link').toMatch(new RegExp(LINK.source));
        for (const [, pointer] of entry.matchAll(/`(#\/[^`]*)`/g))
          expect(() => resolveRef(bundle, { $ref: pointer! }), `${pointer} in ${section.version}`).not.toThrow();
      }
    }
  });

  it('1.1.0 names the changes the issue that froze the releases listed', () => {
    const text = [...sections[0]!.clients, ...sections[0]!.implementations].join('\n');
    for (const change of ['webhook-id', 'webhook-timestamp', 'webhook-signature', '`503`', '`429', 'Rotating a secret', 'webhook_id'])
      expect(text).toContain(change);
    for (const type of ['malformed-request', 'headers-too-large', 'request-timeout', 'service-unavailable', 'storage-full'])
      expect(text).toContain(`\`${type}\``);
  });
});

describe('the docs page', () => {
  const file = join(scratch, 'docs.html');
  buildDocs(committed.json, file);
  const html = readFileSync(file, 'utf8');

  it('renders the changelog as its section, every link an anchor the page has', () => {
    expect(html).toContain('id="/section/changelog"');
    expect(html.includes(JSON.stringify(changelogSection(markdown)).slice(1, 200))).toBe(true);
    const anchors = new Set([...markdown.matchAll(LINK)].map((m) => m[1]!));
    expect(anchors.size).toBeGreaterThan(10);
    expect([...anchors].filter((anchor) => !html.includes(`id="${anchor.slice(1)}"`))).toEqual([]);
  });
});
