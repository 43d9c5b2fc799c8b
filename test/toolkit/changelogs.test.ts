// Each published package keeps a changelog beside its package.json: an Unreleased section for the
// next release, and a section for the version the package has now (the document's info.version).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../packages/api/src/document.ts';
import { manifestOf, PACKAGES, type PackageName } from '../../scripts/packages.ts';

const root = join(import.meta.dirname, '../..');
const NAMES = Object.keys(PACKAGES) as PackageName[];

describe('changelogs', () => {
  it.each(NAMES)('%s: CHANGELOG.md has Unreleased, then the current version', (name) => {
    const manifest = manifestOf(name);
    const text = readFileSync(join(root, PACKAGES[name].dir, 'CHANGELOG.md'), 'utf8');
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(text.startsWith(`# Changelog: ${manifest.name}\n`)).toBe(true);
    expect(headings.slice(0, 2)).toEqual(['Unreleased', manifest.version]);
    expect(manifest.version).toBe(loadDocument().info.version);
  });
});
