// The gate's output: text for a terminal, JSON for tools, markdown for a changelog (breaking
// changes, then the additions a release note lists).
import { type RuleId, ruleEntry } from './catalogue.ts';
import type { ChangeReport } from './compare.ts';
import type { Change } from './model.ts';

export const FORMATS = ['text', 'json', 'markdown'] as const;
export type Format = (typeof FORMATS)[number];

export interface ReportContext {
  /** What was compared, as the reader named it (file paths, or `openapi/` sources). */
  base: string;
  revision: string;
}

const show = (value: unknown) => (value === undefined ? 'none' : JSON.stringify(value));
const oldToNew = (change: Change) =>
  change.before === undefined && change.after === undefined ? '' : `${show(change.before)} → ${show(change.after)}`;

/** Each breaking change: rule, pointer and who breaks, then what changed and old → new. */
export function formatText(changes: Change[]): string {
  return changes
    .map((change) =>
      [
        `✗ ${change.rule}  ${change.pointer}  (breaks ${change.audience.join(', ')})`,
        `    ${change.message}`,
        oldToNew(change) && `    ${oldToNew(change)}`,
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n');
}

export function formatJson(report: ChangeReport, context: ReportContext): string {
  const entry = (change: Change) => ({
    rule: change.rule,
    oasdiff: ruleEntry(change.rule as RuleId).oasdiff,
    pointer: change.pointer,
    message: change.message,
    ...(change.before === undefined ? {} : { before: change.before }),
    ...(change.after === undefined ? {} : { after: change.after }),
  });
  return JSON.stringify(
    {
      ...context,
      breaking: report.breaking.map((change) => ({ ...entry(change), breaks: change.audience })),
      additive: report.additive.map((change) => ({ ...entry(change), for: change.audience })),
    },
    null,
    2,
  );
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function formatMarkdown(report: ChangeReport, context: ReportContext): string {
  const lines = [`# API changes from ${context.base} to ${context.revision}`, '', `## Breaking changes (${report.breaking.length})`, ''];
  if (report.breaking.length === 0) lines.push('None.');
  else {
    lines.push('| rule | where | change | old → new | breaks |', '|---|---|---|---|---|');
    for (const change of report.breaking) {
      const before = oldToNew(change);
      lines.push(
        `| \`${change.rule}\` | \`${cell(change.pointer)}\` | ${cell(change.message)} | ${before ? `\`${cell(before)}\`` : ''} | ${change.audience.join(', ')} |`,
      );
    }
  }
  lines.push('', `## Additions (${report.additive.length})`, '');
  if (report.additive.length === 0) lines.push('None.');
  for (const change of report.additive) lines.push(`- ${change.message} (\`${change.pointer}\`; for ${change.audience.join(', ')})`);
  return lines.join('\n');
}
