// The counts of the code the guides quote are copies, so each is held to the code here: a quote is
// found by the words around it, in every guide, and its number must be the code's. The kit README's
// `plan:` lines are held whole, as the kit renders them for the run they describe (the options table
// beside them is held the same way, packages/contract/test/usage.test.ts). A count of the code no test holds does
// not belong in a guide; measured figures (docs/performance.md) are not counts of the code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listOperations, loadDocument } from '../../packages/api/src/document.ts';
import { createKitContext, type KitOptions } from '../../packages/contract/src/kit/context.ts';
import { planChecks } from '../../packages/contract/src/kit/plan.ts';
import { receiverCases } from '../../packages/contract/src/kit/receiver-check.ts';
import { budgetOf, planOptionsOf } from '../../packages/contract/src/kit/session.ts';
import { BREAKING_RULES } from '../../scripts/breaking/catalogue.ts';
import { PACKAGES } from '../../scripts/packages.ts';
import { GUIDES } from './markdown.ts';

const ROOT = join(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
/** A number as a guide writes it: digits, or a word up to twelve. */
const N = `(\\d[\\d,]*|${WORDS.join('|')})`;
/** The number a quote's match holds (its one group that matched). */
function quoted(match: RegExpMatchArray): number {
  const text = match
    .slice(1)
    .find((group) => group !== undefined)!
    .toLowerCase();
  return WORDS.includes(text) ? WORDS.indexOf(text) : Number(text.replaceAll(',', ''));
}

interface Quote {
  what: string;
  pattern: RegExp;
  count: number;
}

/** Each quote of `quotes` in `text`, as `what: the guide says N, the code M` where they differ. */
function wrongCounts(text: string, quotes: Quote[]): string[] {
  return quotes.flatMap(({ what, pattern, count }) =>
    [...text.matchAll(pattern)]
      .filter((match) => quoted(match) !== count)
      .map((match) => `${what}: "${match[0]}" says ${quoted(match)}, the code ${count}`),
  );
}

const document = loadDocument();
const receiver = receiverCases({ url: 'http://127.0.0.1:9/webhooks', secret: 'whsec_counts' });
const QUOTES: Quote[] = [
  {
    what: 'packages built (scripts/packages.ts)',
    pattern: new RegExp(`\\b${N}\\s+packages\\b`, 'gi'),
    count: Object.keys(PACKAGES).length,
  },
  {
    what: 'rules of the breaking-change gate (scripts/breaking/catalogue.ts)',
    pattern: new RegExp(`\\b${N}\\s+rules\\s+\\(\`scripts/breaking/catalogue\\.ts\``, 'gi'),
    count: Object.keys(BREAKING_RULES).length,
  },
  { what: 'operations of the document', pattern: new RegExp(`\\b${N}\\s+operations\\b`, 'gi'), count: listOperations(document).length },
  {
    what: 'event types of the document',
    pattern: new RegExp(`\\b(?:the|all|delivers)\\s+${N}\\s+events\\b|\\b${N}\\s+event\\s+types\\b`, 'gi'),
    count: Object.keys(document.webhooks ?? {}).length,
  },
  { what: 'deliveries the receiver check sends', pattern: new RegExp(`\\b${N}\\s+deliveries\\s+signed\\b`, 'gi'), count: receiver.length },
  {
    what: 'receiver check cases a receiver accepting everything fails',
    pattern: new RegExp(`to\\s+everything\\s+fails\\s+${N}\\s+cases\\b`, 'gi'),
    count: receiver.filter((c) => c.expect === 'refuse').length,
  },
];

/**
 * The `plan:` line the kit prints for the README's first command (a read key, every other option
 * at its default) against a target with the reference server's production quota, 120 requests a
 * minute, answering in 4 ms (one on the same machine); with `--time-budget` when the line has one.
 */
function renderedPlanLine(line: string): string {
  const options: KitOptions = { baseUrl: 'http://127.0.0.1:3000', apiKey: 'rw', readKey: 'ro', profile: 'stateful' };
  const ctx = createKitContext(options);
  const budget = /--time-budget (\d+) s/.exec(line)?.[1];
  return budgetOf(ctx, planChecks(ctx.model, planOptionsOf(options)), {
    quota: { limit: 120, windowSeconds: 60, remaining: 119, resetSeconds: 60 },
    latencyMs: 4,
    timeBudgetSeconds: budget === undefined ? undefined : Number(budget),
  }).line();
}

describe('the counts the guides quote', () => {
  it('finds a quote whose number is not the code’s, in words or digits', () => {
    expect(wrongCounts('The three packages are versioned with the document.', QUOTES)).toEqual([
      'packages built (scripts/packages.ts): "three packages" says 3, the code 4',
    ]);
    expect(wrongCounts('- **All 14 operations**, each answering', QUOTES)).toHaveLength(1);
    expect(wrongCounts('each of the seven event types and a redelivery', QUOTES)).toHaveLength(1);
    expect(wrongCounts('Four packages are built; the service delivers six events; 300 events × 5 webhooks', QUOTES)).toEqual([]);
  });

  it('finds each kind of quote in some guide', () => {
    const texts = GUIDES.map(read);
    expect(QUOTES.filter((quote) => !texts.some((text) => text.match(quote.pattern))).map((quote) => quote.what)).toEqual([]);
  });

  it.each(GUIDES)('%s: every count it quotes is the code’s', (file) => {
    expect(wrongCounts(read(file), QUOTES)).toEqual([]);
  });

  it('the kit README’s plan lines are the ones the kit prints for the run they describe', () => {
    const lines = read('packages/contract/README.md')
      .split('\n')
      .filter((line) => line.startsWith('plan: '));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.some((line) => line.includes('--time-budget'))).toBe(true);
    for (const line of lines) expect(line).toBe(renderedPlanLine(line));
  });
});
