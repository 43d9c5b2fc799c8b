// The versions of the contract the kit can judge, and since which version each rule applies. A rule
// sentence's version is the first release in which it, or a sentence it only rewords, appears
// (common/sentence-diff.ts): a sentence that a later release changed (naming a new header, value
// or number) or added is new in that release. An implementation that follows an older version is
// judged by that version's rules only (`--contract-version`), and a failure on a newer rule says
// which version introduced it.

import type { OpenApiDocument } from 'secmon-api/src/document';
import { compareVersions } from '../../../../common/semver.ts';
import { diffSentences } from '../../../../common/sentence-diff.ts';
import { documentSentences, type Sentence } from '../../../../common/sentences.ts';
import { RELEASED_DOCUMENTS } from './releases.ts';

const key = (at: string, text: string) => `${at}\u0000${text}`;

export interface ContractVersions {
  /** Every version the kit can judge, oldest first (the document's own last). */
  versions: string[];
  /** The version a rule sentence (its pointer and text in the kit's document) applies since. */
  since(at: string, text: string): string;
  /** The version since which a part of the document (a schema, a header) has been as it is now. */
  sinceAt(pointer: string): string;
}

/** The value at a JSON pointer (`#/components/...`), without following `$ref`s. */
function valueAt(doc: unknown, pointer: string): unknown {
  return pointer
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (node, part) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined),
      doc,
    );
}

/**
 * The versions in `releases` (oldest first) and `document`, the one the kit checks: the newest
 * release, or a document ahead of it (its own version then judged as the newest).
 */
export function contractVersions(document: OpenApiDocument, releases: readonly OpenApiDocument[] = RELEASED_DOCUMENTS): ContractVersions {
  // Every kit run of a process (a test file makes hundreds) asks for the same answer, and comparing
  // every sentence of every release costs more than a short run's requests: one per document text.
  const text = JSON.stringify(document);
  const known = computed.get(releases) ?? new Map<string, ContractVersions>();
  computed.set(releases, known);
  let versions = known.get(text);
  if (!versions) known.set(text, (versions = compute(JSON.parse(text) as OpenApiDocument, text, releases)));
  return versions;
}

const computed = new WeakMap<readonly OpenApiDocument[], Map<string, ContractVersions>>();

function compute(document: OpenApiDocument, text: string, releases: readonly OpenApiDocument[]): ContractVersions {
  const chain = [...releases].sort((a, b) => compareVersions(a.info.version, b.info.version));
  const newest = chain.at(-1);
  if (!newest || JSON.stringify(newest) !== text) chain.push(document);
  let since = new Map<Sentence, string>();
  let previous: Sentence[] = [];
  for (const doc of chain) {
    const sentences = documentSentences(doc);
    const { matches } = diffSentences(previous, sentences);
    const next = new Map<Sentence, string>();
    for (const { sentence, fate, from } of matches)
      next.set(sentence, (fate === 'same' || fate === 'reworded') && from ? since.get(from)! : doc.info.version);
    [since, previous] = [next, sentences];
  }
  const byKey = new Map<string, string>();
  for (const [sentence, version] of since)
    if (!byKey.has(key(sentence.at, sentence.text))) byKey.set(key(sentence.at, sentence.text), version);
  const versions = [...new Set(chain.map((doc) => doc.info.version))];
  const sinceAt = (pointer: string) => {
    const now = JSON.stringify(valueAt(document, pointer));
    let version = document.info.version;
    for (const doc of [...chain].reverse()) {
      if (JSON.stringify(valueAt(doc, pointer)) !== now) break;
      version = doc.info.version;
    }
    return version;
  };
  return { versions, since: (at, text) => byKey.get(key(at, text)) ?? document.info.version, sinceAt };
}

/**
 * The version what a violation breaks applies since: its rule's sentence, or the part of the
 * document it names; undefined when it names neither (it is then part of every version).
 */
export function violationSince(versions: ContractVersions, violation: { rule?: string; sentence?: string; pointer?: string }) {
  if (violation.rule && violation.sentence && violation.pointer) return versions.since(violation.pointer, violation.sentence);
  return violation.pointer ? versions.sinceAt(violation.pointer) : undefined;
}

/** True when a rule applying since `since` is part of version `version`. */
export const ruleInVersion = (since: string, version: string) => compareVersions(since, version) <= 0;
