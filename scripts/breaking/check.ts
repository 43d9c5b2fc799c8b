// `npm run check:breaking`: the current bundle (generated/openapi.json) against the released v1
// document (openapi/releases/v1.0.0.json). Exits 1 and lists the changes when any would break
// a client or a webhook receiver.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledJsonPath } from '../../lib/document-files.ts';
import type { OpenApiDocument } from '../../lib/document.ts';
import { root } from '../pipeline.ts';
import { findBreakingChanges, formatBreakingChanges } from './compare.ts';

export const releasedDocumentPath = join(root, 'openapi/releases/v1.0.0.json');

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as OpenApiDocument;

export function checkAgainstRelease(revision: OpenApiDocument = readJson(bundledJsonPath)) {
  return findBreakingChanges(readJson(releasedDocumentPath), revision);
}

if (import.meta.main) {
  const changes = checkAgainstRelease();
  if (changes.length === 0) {
    console.log('check:breaking: no breaking change against openapi/releases/v1.0.0.json');
  } else {
    console.error(`check:breaking: ${changes.length} breaking change(s) against openapi/releases/v1.0.0.json:\n`);
    console.error(formatBreakingChanges(changes));
    console.error('\nA breaking change needs a new major version (/v2); see the document\'s Versioning section.');
    process.exitCode = 1;
  }
}
