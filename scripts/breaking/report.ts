// The gate's output: text for a terminal, JSON for tools, markdown for a changelog (breaking
// changes, the additions a release note lists, then what changed for implementations).
import { type RuleId, ruleEntry } from './catalogue.ts';
import type { ChangeReport } from './compare.ts';
import type { Change } from './model.ts';
import type { Impact, ImplementationChange } from './obligations.ts';
import type { VersionVerdict } from './versioning.ts';

export const FORMATS = ['text', 'json', 'markdown'] as const;
export type Format = (typeof FORMATS)[number];

export interface ReportContext {
  /** What was compared, as the reader named it (file paths, or `openapi/` sources). */
  base: string;
  revision: string;
}

export interface CheckResult {
  report: ChangeReport;
  implementations: ImplementationChange[];
  version: VersionVerdict;
  context: ReportContext;
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

const IMPACT_MARK: Record<Impact, string> = { 'new obligation': '+', 'removed obligation': '-', reworded: '~', 'no change': '·' };
const count = (changes: ImplementationChange[], impact: Impact) => changes.filter((c) => c.impact === impact).length;

/** The terminal report: what was compared, the verdict for each audience, the version, and each problem. */
export function formatSummary({ report, implementations, version, context }: CheckResult): string {
  const head = `check:breaking: ${context.revision} against ${context.base}`;
  if (version.needed === 'none' && version.problems.length === 0)
    return `check:breaking: no change in ${context.revision} against ${context.base}`;
  const lines = [
    head,
    `For clients: ${report.breaking.length} breaking, ${report.additive.length} compatible change(s).`,
    `For implementations: ${count(implementations, 'new obligation')} new obligation(s), ${count(implementations, 'removed obligation')} removed, ${count(implementations, 'reworded')} sentence(s) reworded.`,
    ...implementations.map((c) => `  ${IMPACT_MARK[c.impact]} ${c.impact}  ${c.pointer}  ${c.message}`),
    `Version: ${version.released} → ${version.revision}; the changes need ${version.needed === 'none' ? 'no new version' : `a ${version.needed} version`}.`,
  ];
  if (report.breaking.length > 0)
    lines.push(
      '',
      formatText(report.breaking),
      "\nA breaking change needs a new major version (/v2); see the document's Versioning section.",
    );
  for (const problem of version.problems) lines.push(`✗ ${problem}`);
  return lines.join('\n');
}

export function formatJson({ report, implementations, version, context }: CheckResult): string {
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
      implementations,
      version,
    },
    null,
    2,
  );
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function formatMarkdown({ report, implementations, version, context }: CheckResult): string {
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
  lines.push('', `## For implementations (${implementations.length})`, '');
  if (implementations.length === 0) lines.push('None.');
  for (const change of implementations) lines.push(`- ${change.impact}: ${change.message} (\`${change.pointer}\`)`);
  lines.push(
    '',
    `Needs ${version.needed === 'none' ? 'no new version' : `a ${version.needed} version`} (${version.released} → ${version.revision}).`,
  );
  for (const problem of version.problems) lines.push('', `✗ ${problem}`);
  return lines.join('\n');
}
