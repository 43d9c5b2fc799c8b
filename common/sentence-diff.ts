// How the rule sentences of one version of the document became those of the next: each sentence
// of the newer version is the same rule (its text found anywhere in the older one: moved, or its
// parameter renumbered), a reworded one, a changed one or a new one; each sentence of the older
// version no longer there was removed. The breaking-change gate reads it to classify a change for
// implementations, the kit to say since which version a rule applies.
import type { Sentence } from './sentences.ts';

export type SentenceFate = 'same' | 'reworded' | 'changed' | 'new';

export interface SentenceMatch {
  sentence: Sentence;
  fate: SentenceFate;
  /** The older version's sentence it continues (same, reworded or changed). */
  from?: Sentence;
  /** What a changed sentence names that its older wording did not (code spans, numbers). */
  added?: string[];
}

export interface SentenceDiff {
  /** Every sentence of the newer version, in document order. */
  matches: SentenceMatch[];
  /** Sentences of the older version with no successor. */
  removed: Sentence[];
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9_-]+/g) ?? []);
function similarity(a: string, b: string): number {
  const [x, y] = [words(a), words(b)];
  const shared = [...x].filter((word) => y.has(word)).length;
  return shared / Math.max(1, new Set([...x, ...y]).size);
}
// Below this share of common words, a sentence that left and one that arrived are two rules, not one reworded.
const SAME_RULE = 0.5;
// What a rule is made of beyond its wording: code spans (headers, fields, values) and numbers.
const terms = (text: string) => new Set([...(text.match(/`[^`]+`/g) ?? []), ...(text.match(/\d[\d,.]*/g) ?? [])]);

/**
 * A sentence found anywhere in both versions is the same rule. Of the rest, within one description,
 * a sentence that left is paired with the most similar one that arrived: reworded when they share
 * most words and the new one names no header, value or number the old one did not; changed when
 * it does. What arrived unpaired is new; what left unpaired was removed.
 */
export function diffSentences(older: Sentence[], newer: Sentence[]): SentenceDiff {
  const pool = [...older];
  const matches: SentenceMatch[] = newer.map((sentence) => {
    const i = pool.findIndex((s) => s.text === sentence.text);
    return i < 0 ? { sentence, fate: 'new' } : { sentence, fate: 'same', from: pool.splice(i, 1)[0]! };
  });
  const removed: Sentence[] = [];
  for (const gone of pool) {
    const candidates = matches.filter((m) => m.fate === 'new' && m.sentence.at === gone.at);
    const best = candidates.map((m) => [similarity(gone.text, m.sentence.text), m] as const).sort((a, b) => b[0] - a[0])[0];
    if (!best || best[0] < SAME_RULE) {
      removed.push(gone);
      continue;
    }
    const before = terms(gone.text);
    const added = [...terms(best[1].sentence.text)].filter((term) => !before.has(term));
    Object.assign(best[1], added.length === 0 ? { fate: 'reworded', from: gone } : { fate: 'changed', from: gone, added });
  }
  return { matches, removed };
}
