// The contract's changelog (openapi/CHANGELOG.md) as a section of the docs page: appended to the
// introduction under "Changelog", its headings one level down so each version is a sub-section of
// it. Its links are the page's own anchors (`#/section/versioning`), so they work there as written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenApiDocument } from '../../packages/api/src/document.ts';

export const CHANGELOG_FILE = join(import.meta.dirname, '../../openapi/CHANGELOG.md');
export const CHANGELOG_HEADING = 'Changelog';

/** The changelog's text without its title, every heading one level deeper. */
export function changelogSection(markdown: string): string {
  const body = markdown.replace(/^# [^\n]*\n+/, '');
  return `## ${CHANGELOG_HEADING}\n\n${body.replace(/^(#{2,5}) /gm, '#$1 ')}`;
}

/** A copy of the document whose introduction ends with the changelog. */
export function withChangelog(source: OpenApiDocument, markdown = readFileSync(CHANGELOG_FILE, 'utf8')): OpenApiDocument {
  const doc = structuredClone(source);
  doc.info.description = `${doc.info.description ?? ''}\n\n${changelogSection(markdown)}`;
  return doc;
}
