// The rule catalogue's shape and how it is held against the document: every sentence of every
// description (common/sentences.ts) is an entry of the catalogue (rules/catalogue.ts), which says
// that it is a rule (the checks that judge it list its id in their definitions), why it cannot be
// observed from outside, or that it is not a rule at all. An entry stores the sentence itself, so a changed sentence shows
// up as one missing and one stale entry instead of silently keeping its old verdict.

import type { OpenApiDocument } from 'secmon-api/src/document';
import { documentSentences, type Sentence } from '../../../../../common/sentences.ts';

interface EntryBase {
  /** Stable id: the area (an info section, an operationId, a webhook or a component) and a number. */
  id: string;
  /** JSON pointer of the description in the bundled document. */
  at: string;
  /** The sentence, as common/sentences.ts extracts it. */
  text: string;
}

/** A rule the kit judges: which checks do is in their definitions (`rules`), not here. */
export type Rule = EntryBase;
/** A rule the kit cannot judge from outside, and why. */
export interface UnobservableRule extends EntryBase {
  unobservable: string;
}
/** Not a rule: a title, an illustration, advice to clients, or a permission the kit simply honours. */
export interface InformativeEntry extends EntryBase {
  informative: true;
}
export type CatalogueEntry = Rule | UnobservableRule | InformativeEntry;

export type RuleStatus = 'checked' | 'not observable' | 'informative';

export function statusOf(entry: CatalogueEntry): RuleStatus {
  return 'unobservable' in entry ? 'not observable' : 'informative' in entry ? 'informative' : 'checked';
}

export interface CatalogueDrift {
  /** Sentences of the document no entry accounts for. */
  missing: Sentence[];
  /** Entries whose sentence is no longer at their pointer (changed, moved or removed). */
  stale: CatalogueEntry[];
  /** Ids used by more than one entry. */
  duplicateIds: string[];
}

const key = (at: string, text: string) => `${at}\u0000${text}`;

/** What the catalogue misses of the document and what it holds that the document no longer says. */
export function catalogueDrift(doc: OpenApiDocument, catalogue: readonly CatalogueEntry[]): CatalogueDrift {
  const unclaimed = new Map<string, CatalogueEntry[]>();
  for (const entry of catalogue) unclaimed.set(key(entry.at, entry.text), [...(unclaimed.get(key(entry.at, entry.text)) ?? []), entry]);
  const missing: Sentence[] = [];
  for (const sentence of documentSentences(doc)) {
    const entries = unclaimed.get(key(sentence.at, sentence.text));
    if (entries && entries.length > 0) entries.shift();
    else missing.push(sentence);
  }
  const stale = [...unclaimed.values()].flat();
  const duplicateIds = catalogue.map((e) => e.id).filter((id, index, ids) => ids.indexOf(id) !== index);
  return { missing, stale, duplicateIds };
}

/**
 * The area a sentence's id starts with: the info section's heading, the operationId, the webhook's
 * event type, or the component's kind and name.
 */
export function areaOf(doc: OpenApiDocument, sentence: Sentence): string {
  const parts = sentence.at
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const slug = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
  if (parts[0] === 'info') return sentence.section ? slug(sentence.section) : 'api';
  if (parts[0] === 'paths' || parts[0] === 'webhooks') {
    const item = (doc as unknown as Record<string, Record<string, Record<string, { operationId?: string }>>>)[parts[0]]?.[parts[1]!]?.[
      parts[2]!
    ];
    return item?.operationId ?? slug(parts.slice(1, 3).join('-'));
  }
  if (parts[0] === 'components') {
    const kind =
      { schemas: 'schema', parameters: 'param', headers: 'header', responses: 'response', securitySchemes: 'security' }[parts[1]!] ??
      parts[1]!;
    return `${kind}.${parts[2]}`;
  }
  return slug(parts.slice(0, 2).join('-'));
}

/** The next free id of an area: `<area>.<n>`, one above the highest number in use. */
export function nextId(catalogue: readonly CatalogueEntry[], area: string, taken: Set<string> = new Set()): string {
  let n = 1;
  for (const entry of catalogue) {
    const match = entry.id.startsWith(`${area}.`) ? /\.(\d+)$/.exec(entry.id) : null;
    if (match) n = Math.max(n, Number(match[1]) + 1);
  }
  while (taken.has(`${area}.${n}`)) n++;
  return `${area}.${n}`;
}
