#!/usr/bin/env node
// `npm run contract:rules` (node test/contract/kit/rules/sync.ts): after a change to the document's
// descriptions (and `npm run generate`), prints what the rule catalogue lacks and what it holds
// that the document no longer says, with entries ready to paste into rules/catalogue.ts. Exit 1
// while they differ, 0 once they agree.
import { loadDocument } from '../../../../lib/document.ts';
import { CATALOGUE } from './catalogue.ts';
import { areaOf, catalogueDrift, nextId } from './rule.ts';

const doc = loadDocument();
const drift = catalogueDrift(doc, CATALOGUE);
const q = (text: string) => (text.includes("'") ? JSON.stringify(text) : `'${text.replace(/\\/g, '\\\\')}'`);
const out: string[] = [];

if (drift.stale.length > 0) {
  out.push(`${drift.stale.length} stale entr${drift.stale.length === 1 ? 'y' : 'ies'} (the sentence is no longer at its pointer): remove or update each in rules/catalogue.ts`, '');
  for (const entry of drift.stale) out.push(`  ${entry.id}  ${entry.at}`, `    ${entry.text}`);
  out.push('');
}
if (drift.missing.length > 0) {
  out.push(
    `${drift.missing.length} sentence${drift.missing.length === 1 ? '' : 's'} of the document not in the catalogue. Paste each entry after the others of its pointer and`,
    'replace `checks: []` by the checks that judge it, or by `unobservable: "<why>"`, or by `informative: true`.',
    'A changed sentence keeps the id of the stale entry it replaces (shown as "was").',
    '',
  );
  const taken = new Set<string>();
  for (const sentence of drift.missing) {
    const replaced = drift.stale.find((entry) => entry.at === sentence.at && !taken.has(entry.id));
    const id = replaced?.id ?? nextId(CATALOGUE, areaOf(doc, sentence), taken);
    taken.add(id);
    const was = replaced ? `  // was: ${replaced.text.slice(0, 100)}${'checks' in replaced ? ` (checks: ${replaced.checks.join(', ')})` : ''}` : '';
    out.push(`  { id: ${q(id)}, at: ${q(sentence.at)}, text: ${q(sentence.text)}, checks: [] },${was}`);
  }
  out.push('');
}
if (drift.duplicateIds.length > 0) out.push(`ids used twice: ${drift.duplicateIds.join(', ')}`, '');
const clean = drift.missing.length === 0 && drift.stale.length === 0 && drift.duplicateIds.length === 0;
out.push(clean ? `the catalogue matches the document: ${CATALOGUE.length} entries` : 'the catalogue does not match the document yet');
process.stdout.write(`${out.join('\n')}\n`);
process.exit(clean ? 0 : 1);
