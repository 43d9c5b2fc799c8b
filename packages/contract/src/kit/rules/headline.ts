// A violation in words: the one line a dashboard shows (the rule it breaks and its sentence, or the
// schema and the field) — apart from the rule report, so grouping faults can use it.
import type { Violation } from '../violation.ts';

/** A sentence quoted as the reports show it, cut at 240 characters. */
export const quote = (text: string) => `“${text.length > 240 ? `${text.slice(0, 240)}…` : text}”`;

/** `the schema at <pointer>: \`updated_at\` is required`: what a schema violation breaks, in words. */
export function schemaClause(violation: Violation): string {
  const what = violation.subject?.missing ? `\`${violation.subject.missing}\` is required` : `\`${violation.subject?.what}\``;
  return `the schema at ${violation.pointer ?? '?'}: ${what}`;
}

/**
 * A violation in one line, as a dashboard shows it: the headline rule and its sentence (or the
 * schema), what was observed, and what was expected when the sentence does not already say it.
 */
export function headline(violation: Violation): string {
  const [message = '', ...details] = violation.observed.split('\n');
  if (!violation.rule && violation.subject?.what) {
    const detail = details.find((line) => line.includes(violation.subject!.what!)) ?? message;
    return `${schemaClause(violation)} — observed ${detail.replace(/ \(value: .*$/, '')}`;
  }
  const expected = violation.expected !== violation.sentence ? `; expected ${violation.expected}` : '';
  return violation.rule
    ? `rule ${violation.rule}: ${quote(violation.sentence ?? '')} — observed ${message}${expected}`
    : `${message}${expected}`;
}
