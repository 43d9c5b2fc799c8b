// The problem types of the document's Errors table: each type's URI and status, and the sentence
// that states it.
import type { KitContext } from '../../context.ts';
import { CATALOGUE } from '../../rules/catalogue.ts';
import type { StatedRule } from '../../rules/stated.ts';

export const PROBLEM_BASE = 'https://secmon.dev/problems/';

export interface ProblemRow {
  type: string;
  status: number;
  /** The catalogue id of the row's sentence (`errors.<n>`). */
  rule: StatedRule;
}

/** The problem types of the document's *Errors* table, with their status. */
export function problemTable(ctx: KitContext): ProblemRow[] {
  const rows: ProblemRow[] = [];
  for (const line of (ctx.model.doc.info.description ?? '').split('\n')) {
    const match = /^\|\s*`([a-z-]+)`\s*\|\s*(\d{3})\s*\|/.exec(line.trim());
    if (!match) continue;
    const type = match[1]!;
    const stated = CATALOGUE.find((entry) => entry.at === '/info/description' && entry.text.startsWith(`\`${type}\` |`))?.id;
    const rule = (stated ?? 'errors.1') as StatedRule;
    rows.push({ type, status: Number(match[2]), rule });
  }
  return rows;
}
