// The rule a failure is about, chosen by what it is about: a failure's subject (the operation
// judged, and the field, parameter, header or transition involved) is held against the sentences of
// the rules its check named or judges, and the sentence that speaks of that subject most directly
// heads the report; other rules the same observation touches follow as "also". Sentences that only
// set the scene (authentication, the general shape of lists, another operation's description) never
// head a failure: a check judges them alongside, but a fault in one field does not break them.
import { CATALOGUE, type RuleId } from './rules/catalogue.ts';
import { type CatalogueEntry, statusOf } from './rules/rule.ts';

/** What a failure is about. */
export interface Subject {
  /** The operation or webhook judged, as the console labels it (`getPolicy (GET /v1/policies/{id})`). */
  operation?: string;
  /** The field, parameter, header or transition involved (`updated_at`, `limit`, `open → resolved`). */
  what?: string;
  /** A field the answer lacks although its schema requires it. */
  missing?: string;
}

/** Rules that state context for every operation; they head only a failure that names nothing else. */
const CONTEXT = [/^authentication\./, /^pagination\.1$/];
/** A rule of one operation or webhook: its id starts with that name (`listPolicies.1`). */
const OWNER = /^([a-z]+(?:[A-Z][a-z0-9]*)+)\./;

/** The operation or webhook a rule belongs to (`listPolicies` for `listPolicies.1`); undefined for a rule of the whole document. */
export const ownerOf = (id: string): string | undefined => OWNER.exec(id)?.[1];

const operationName = (label: string | undefined) => label?.split(' ')[0];

/** `open → resolved`, a field path, or a word of the message that a candidate sentence quotes in backticks. */
export function subjectOf(
  operation: string | undefined,
  message: string,
  details: readonly string[],
  candidates: readonly CatalogueEntry[],
  named?: string,
): Subject {
  const subject: Subject = operation ? { operation } : {};
  const missing = details.map((line) => /must have required property '([^']+)'/.exec(line)?.[1]).find(Boolean);
  if (missing) return { ...subject, what: missing, missing };
  if (named) return { ...subject, what: named };
  const transition = /(\S+) → (\S+)/.exec(message);
  if (transition) return { ...subject, what: `${transition[1]} → ${transition[2]}` };
  const field = details.map((line) => /^\/(?:\S*\/)?([A-Za-z_][\w-]*) must /.exec(line)?.[1]).find(Boolean);
  if (field) return { ...subject, what: field };
  const words = new Set(message.match(/[A-Za-z_][\w-]*/g) ?? []);
  const quotedBy = (entries: readonly CatalogueEntry[]) =>
    entries.flatMap((entry) => [...entry.text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)).find((term) => words.has(term) && term.length > 2);
  const what = quotedBy(candidates) ?? quotedBy(CATALOGUE.filter((entry) => statusOf(entry) === 'checked'));
  return what ? { ...subject, what } : subject;
}

/** Checked rules of the whole catalogue that quote the subject, for a failure its check's own rules do not speak of. */
export function rulesQuoting(subject: Subject): CatalogueEntry[] {
  if (!subject.what) return [];
  const term = `\`${subject.what}\``;
  return CATALOGUE.filter((entry) => statusOf(entry) === 'checked' && entry.text.includes(term) && !isContext(entry.id, subject));
}

/** How directly a sentence speaks of the subject: its backticked terms against the subject and the message. */
function relevance(entry: CatalogueEntry, subject: Subject, message: string): number {
  const quoted = [...entry.text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const parts = subject.what?.split(' → ') ?? [];
  let score = 0;
  if (subject.what && quoted.includes(subject.what)) score += 4;
  else if (parts.length > 1 && entry.text.startsWith(`\`${parts[0]}\``) && quoted.includes(parts[1]!)) score += 4;
  else if (parts.some((part) => quoted.includes(part) || new RegExp(`\\b${escapeRegExp(part)}\\b`).test(entry.text))) score += 2;
  const words = new Set(message.match(/[A-Za-z_][\w-]*/g) ?? []);
  score += quoted.filter((term) => words.has(term)).length * 0.1;
  // A status the observation expected: the sentence that states it is the one broken.
  const status = /expected (\d{3})/.exec(message)?.[1];
  if (status && quoted.includes(status)) score += 3;
  return score;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const isContext = (id: string, subject: Subject) => {
  if (CONTEXT.some((pattern) => pattern.test(id))) return true;
  const owner = ownerOf(id);
  return owner !== undefined && subject.operation !== undefined && owner !== operationName(subject.operation);
};

export interface Cause {
  /** The rule the observation contradicts most directly; absent when no sentence speaks of it (a schema). */
  rule?: RuleId;
  /** Other rules the same observation breaks or touches. */
  also: RuleId[];
}

/**
 * The headline rule among `named` (the rules the check said the observation breaks) and `judged`
 * (the rules the check judges): a named rule that speaks of the subject first, then any named rule
 * that is not context, then a judged rule that speaks of the subject; never a context rule while
 * another is named. Ties keep the check's order; the subject operation's own rules come first.
 */
export function causeOf(subject: Subject, message: string, named: readonly CatalogueEntry[], judged: readonly CatalogueEntry[]): Cause {
  const own = (entry: CatalogueEntry) => ownerOf(entry.id) === operationName(subject.operation);
  const rank = (entries: readonly CatalogueEntry[]) =>
    entries
      .filter((entry) => !isContext(entry.id, subject))
      .map((entry, index) => ({ entry, score: relevance(entry, subject, message) + (own(entry) ? 0.5 : 0), index }))
      .sort((a, b) => b.score - a.score || a.index - b.index);
  const namedRanked = rank(named);
  const judgedRanked = rank(judged).filter((r) => r.score >= 2);
  const head = namedRanked.find((r) => r.score >= 2) ?? namedRanked[0] ?? judgedRanked[0];
  const rule = (head?.entry.id ?? (subject.missing ? undefined : named[0]?.id)) as RuleId | undefined;
  const also = [...new Set([...named.map((e) => e.id), ...judgedRanked.map((r) => r.entry.id)])].filter((id) => id !== rule) as RuleId[];
  return { ...(rule ? { rule } : {}), also: rule || named.length > 0 ? also : [] };
}
