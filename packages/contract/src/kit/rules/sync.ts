#!/usr/bin/env node
// `npm run contract:rules` (node packages/contract/src/kit/rules/sync.ts): after a change to the document's
// descriptions (and `npm run generate`), prints what the rule catalogue lacks and what it holds
// that the document no longer says, with entries ready to paste into rules/catalogue.ts. Exit 1
// while they differ, 0 once they agree. With `--write` it edits catalogue.ts itself: stale entries
// go, missing sentences come in after the others of their pointer (each a rule gap until a check's
// definition lists its id in `rules`, or it is marked unobservable or informative), a changed
// sentence keeping its old id.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadDocument } from 'secmon-api/src/document';
import { checksJudging } from '../registry.ts';
import { CATALOGUE } from './catalogue.ts';
import { areaOf, type CatalogueEntry, catalogueDrift, nextId, statusOf } from './rule.ts';

const doc = loadDocument();
const drift = catalogueDrift(doc, CATALOGUE);
const q = (text: string) => (text.includes("'") ? JSON.stringify(text) : `'${text.replace(/\\/g, '\\\\')}'`);
const out: string[] = [];

/**
 * Each missing sentence as a catalogue line; a changed sentence takes the id of the stale entry it
 * replaces: one at the same pointer and, within `info.description` (one pointer for every
 * section), of the same area, so a section's ids never move into another.
 */
const taken = new Set<string>();
const added = drift.missing.map((sentence) => {
  const area = areaOf(doc, sentence);
  const replaced = drift.stale.find((entry) => entry.at === sentence.at && entry.id.startsWith(`${area}.`) && !taken.has(entry.id));
  const id = replaced?.id ?? nextId(CATALOGUE, area, taken);
  taken.add(id);
  const was = replaced
    ? `  // was: ${replaced.text.slice(0, 100)}${checksJudging(replaced.id).length > 0 ? ` (judged by ${checksJudging(replaced.id).join(', ')})` : ''}`
    : '';
  return { at: sentence.at, line: `  { id: ${q(id)}, at: ${q(sentence.at)}, text: ${q(sentence.text)} },${was}` };
});

if (process.argv.includes('--write') && (added.length > 0 || drift.stale.length > 0)) {
  const file = fileURLToPath(new URL('./catalogue.ts', import.meta.url));
  const lines = readFileSync(file, 'utf8').split('\n');
  const staleIds = new Set(drift.stale.map((entry) => `{ id: ${q(entry.id)},`));
  const kept = lines.filter((line) => ![...staleIds].some((start) => line.trimStart().startsWith(start)));
  for (const entry of added) {
    const marker = `at: ${q(entry.at)},`;
    const last = kept.findLastIndex((line) => line.includes(marker));
    if (last >= 0) kept.splice(last + 1, 0, entry.line);
    else kept.splice(kept.lastIndexOf('];'), 0, `  // ${entry.at}`, entry.line);
  }
  writeFileSync(file, kept.join('\n'));
  out.push(
    `wrote ${added.length} new entr${added.length === 1 ? 'y' : 'ies'} and removed ${drift.stale.length} stale into ${file}: list each new id in the \`rules\` of the checks that judge it (or mark it unobservable / informative), then run this again`,
    '',
  );
}

if (drift.stale.length > 0) {
  out.push(
    `${drift.stale.length} stale entr${drift.stale.length === 1 ? 'y' : 'ies'} (the sentence is no longer at its pointer): remove or update each in rules/catalogue.ts`,
    '',
  );
  for (const entry of drift.stale) out.push(`  ${entry.id}  ${entry.at}`, `    ${entry.text}`);
  out.push('');
}
if (drift.missing.length > 0) {
  out.push(
    `${drift.missing.length} sentence${drift.missing.length === 1 ? '' : 's'} of the document not in the catalogue. Paste each entry after the others of its pointer and`,
    'list its id in the `rules` of the checks that judge it (kit/checks/), or add `unobservable: "<why>"` or `informative: true`.',
    'A changed sentence keeps the id of the stale entry it replaces (shown as "was", with the checks that judged it).',
    '',
  );
  for (const line of added) out.push(line.line);
  out.push('');
}
if (drift.duplicateIds.length > 0) out.push(`ids used twice: ${drift.duplicateIds.join(', ')}`, '');
const unclassified = (CATALOGUE as readonly CatalogueEntry[]).filter(
  (entry) => statusOf(entry) === 'checked' && checksJudging(entry.id).length === 0,
);
if (unclassified.length > 0)
  out.push(
    `${unclassified.length} entr${unclassified.length === 1 ? 'y' : 'ies'} still to classify (no check judges it): ${unclassified.map((e) => e.id).join(', ')}`,
    '',
  );
const clean = drift.missing.length === 0 && drift.stale.length === 0 && drift.duplicateIds.length === 0 && unclassified.length === 0;
out.push(clean ? `the catalogue matches the document: ${CATALOGUE.length} entries` : 'the catalogue does not match the document yet');
process.stdout.write(`${out.join('\n')}\n`);
process.exit(clean ? 0 : 1);
