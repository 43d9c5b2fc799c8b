// What a change to the document means for an implementation (a service offering the API), beside
// what it means for clients (compare.ts). For a client an addition is compatible; for an
// implementation it is a new obligation: a header to send, a response to give, a field to accept,
// a rule sentence to follow. The sources: the gate's rules (every addition and break they find),
// the description sentences (a new sentence is a new rule; a reworded one is not), and whatever
// else differs in the contract that no rule explains (counted as a new obligation, to be safe).

import { diffSentences } from '../../common/sentence-diff.ts';
import { documentSentences } from '../../common/sentences.ts';
import { escapePointer, type OpenApiDocument } from '../../packages/api/src/document.ts';
import type { ChangeReport } from './compare.ts';
import type { Change } from './model.ts';

export type Impact = 'new obligation' | 'removed obligation' | 'reworded' | 'no change';

export interface ImplementationChange {
  impact: Impact;
  pointer: string;
  message: string;
}

/** The version a set of changes needs: a break needs /v2, an obligation gained or lost a minor version. */
export type Bump = 'none' | 'patch' | 'minor' | 'major';
export const BUMPS: readonly Bump[] = ['none', 'patch', 'minor', 'major'];

// What only documents the contract: where it is served, its title and contact, illustrations.
const DOCUMENTATION = [/^#\/servers(\/|$)/, /^#\/tags(\/|$)/, /^#\/info\/(?!version$)/, /^#\/externalDocs(\/|$)/];
const IGNORED_KEYS = new Set(['description', 'summary', 'example', 'examples']);

/** Description sentences that arrived, left, were reworded or changed (common/sentence-diff.ts says how they are told apart). */
export function sentenceChanges(base: OpenApiDocument, revision: OpenApiDocument): ImplementationChange[] {
  const { matches, removed } = diffSentences(documentSentences(base), documentSentences(revision));
  const gone = removed.map(
    (s): ImplementationChange => ({ impact: 'removed obligation', pointer: s.at, message: `the sentence "${s.text}" was removed` }),
  );
  const arrived = matches.flatMap(({ sentence, fate, from, added }): ImplementationChange[] => {
    if (fate === 'same') return [];
    if (fate === 'reworded') return [{ impact: 'reworded', pointer: sentence.at, message: `"${from!.text}" now reads "${sentence.text}"` }];
    const message =
      fate === 'changed'
        ? `a rule sentence changed, adding ${added!.join(', ')}: "${sentence.text}"`
        : `a new rule sentence: "${sentence.text}"`;
    return [{ impact: 'new obligation', pointer: sentence.at, message }];
  });
  return [...gone, ...arrived];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every place the two documents differ outside descriptions and examples; arrays compared as sets. */
function structuralDifferences(a: unknown, b: unknown, pointer = '#'): { pointer: string; before: unknown; after: unknown }[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (isObject(a) && isObject(b))
    return [...new Set([...Object.keys(a), ...Object.keys(b)])]
      .filter((key) => !IGNORED_KEYS.has(key) && !(pointer === '#/info' && key === 'version'))
      .flatMap((key) => structuralDifferences(a[key], b[key], `${pointer}/${escapePointer(key)}`));
  if (Array.isArray(a) && Array.isArray(b)) {
    const strip = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(strip)
        : isObject(value)
          ? Object.fromEntries(
              Object.entries(value)
                .filter(([k]) => !IGNORED_KEYS.has(k))
                .map(([k, v]) => [k, strip(v)]),
            )
          : value;
    const [x, y] = [a.map((v) => JSON.stringify(strip(v))), b.map((v) => JSON.stringify(strip(v)))];
    const removed = x.filter((v) => !y.includes(v));
    const added = y.filter((v) => !x.includes(v));
    if (removed.length === 0 && added.length === 0) return [];
    return [{ pointer, before: removed.map((v) => JSON.parse(v)), after: added.map((v) => JSON.parse(v)) }];
  }
  return [{ pointer, before: a, after: b }];
}

/** Pointers a difference is explained by: the place itself, what it contains, or a `$ref` target it adds or drops. */
function explained(difference: { pointer: string; before: unknown; after: unknown }, covered: string[]): boolean {
  const refs = JSON.stringify([difference.before, difference.after]).match(/"\$ref":"(#[^"]*)"/g) ?? [];
  const targets = [difference.pointer, ...refs.map((ref) => ref.slice('"$ref":"'.length, -1))];
  return targets.some((target) => covered.some((p) => p === target || p.startsWith(`${target}/`) || target.startsWith(`${p}/`)));
}

const fromRule = (change: Change, impact: Impact): ImplementationChange => ({ impact, pointer: change.pointer, message: change.message });

/** Every change, as an implementation of the revision sees it. */
export function implementationChanges(base: OpenApiDocument, revision: OpenApiDocument, report: ChangeReport): ImplementationChange[] {
  const ruled = [
    ...report.additive.map((change) => fromRule(change, 'new obligation')),
    ...report.breaking.map((change) => fromRule(change, /-removed$/.test(change.rule) ? 'removed obligation' : 'new obligation')),
  ];
  const covered = [...report.additive, ...report.breaking].map((change) => change.pointer);
  const other = structuralDifferences(base, revision)
    // A component added or removed is no obligation by itself: where it is used, the rules see it.
    .filter((difference) => !(/^#\/components\/[^/]+\/[^/]+$/.test(difference.pointer) && (!difference.before || !difference.after)))
    .filter((difference) => !explained(difference, covered))
    .map(
      (difference): ImplementationChange =>
        DOCUMENTATION.some((pattern) => pattern.test(difference.pointer))
          ? { impact: 'no change', pointer: difference.pointer, message: 'documentation of the contract changed (not an obligation)' }
          : {
              impact: 'new obligation',
              pointer: difference.pointer,
              message: `changed in a way no rule classifies (${JSON.stringify(difference.before)} → ${JSON.stringify(difference.after)}): counted as a new obligation`,
            },
    );
  return [...ruled, ...sentenceChanges(base, revision), ...other];
}

/** The smallest version step that may carry these changes. */
export function bumpNeeded(report: ChangeReport, implementations: ImplementationChange[], contractDiffers: boolean): Bump {
  if (report.breaking.length > 0) return 'major';
  if (report.additive.length > 0 || implementations.some((c) => c.impact === 'new obligation' || c.impact === 'removed obligation'))
    return 'minor';
  return contractDiffers ? 'patch' : 'none';
}
