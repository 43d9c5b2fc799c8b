// Every sentence of every `description` in the document, with the JSON pointer of the text it
// comes from: what the contract kit's rule catalogue must account for, and what the breaking-change
// gate compares between releases. A description is Markdown, so it is cut into blocks first: a
// paragraph or list item is split into sentences, a table row is one statement (its cells joined
// by " | "), a fenced code block is one statement, headings are titles and are skipped. `summary` fields are titles too and are not extracted. Example objects
// (`example`, `examples`) are illustrations, not statements, and are skipped with all they hold.
import { escapePointer, type OpenApiDocument } from '../packages/api/src/document.ts';

export interface Sentence {
  /** JSON pointer of the description the sentence is in. */
  at: string;
  /** The sentence, whitespace collapsed to single spaces. */
  text: string;
  /** The Markdown heading it is under, if any (the document's own grouping). */
  section?: string;
}

const SKIPPED_KEYS = new Set(['example', 'examples']);

/** Every description sentence of the document, in document order. */
export function documentSentences(doc: OpenApiDocument): Sentence[] {
  const out: Sentence[] = [];
  const walk = (value: unknown, pointer: string) => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, `${pointer}/${index}`));
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      if (SKIPPED_KEYS.has(key)) continue;
      const at = `${pointer}/${escapePointer(key)}`;
      if (key === 'description' && typeof child === 'string') out.push(...splitDescription(child).map((s) => ({ at, ...s })));
      else walk(child, at);
    }
  };
  walk(doc, '');
  return out;
}

/** A Markdown description as sentences (see the head of this file for what counts as one). */
export function splitDescription(markdown: string): Omit<Sentence, 'at'>[] {
  const out: Omit<Sentence, 'at'>[] = [];
  let section: string | undefined;
  let paragraph: string[] = [];
  const push = (text: string) => out.push({ text, ...(section ? { section } : {}) });
  const flush = () => {
    for (const sentence of splitSentences(paragraph.join(' '))) push(sentence);
    paragraph = [];
  };
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.startsWith('```')) {
      flush();
      const block = [line];
      while (++i < lines.length && !lines[i]!.trim().startsWith('```')) block.push(lines[i]!.trim());
      block.push('```');
      push(collapse(block.join(' ')));
      continue;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      section = heading[1]!.trim();
      continue;
    }
    if (line.startsWith('|')) {
      flush();
      const cells = line
        .replace(/^\|/, '')
        .replace(/\|$/, '')
        .split('|')
        .map((cell) => cell.trim());
      // The separator row and the header row (the one before a separator) are not statements.
      if (cells.every((cell) => /^:?-+:?$/.test(cell)) || /^\|\s*:?-+/.test(lines[i + 1]?.trim() ?? '')) continue;
      push(collapse(cells.join(' | ')));
      continue;
    }
    if (line === '') {
      flush();
      continue;
    }
    // A list item starts a block of its own.
    if (/^(\d+\.|[-*])\s+/.test(line)) flush();
    paragraph.push(line.replace(/^(\d+\.|[-*])\s+/, ''));
  }
  flush();
  return out;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Sentence ends: `.`, `!` or `?` then space then something that starts a sentence. */
function splitSentences(text: string): string[] {
  return collapse(text)
    .split(/(?<=[.!?])\s+(?=[A-Z`*[(])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}
