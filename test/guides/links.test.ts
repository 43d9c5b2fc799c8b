// Every relative link of the README and the guides leads somewhere: the file exists and, when the
// link names a section, the file has a heading of that name (GitHub's anchors). So does every path
// of the repository a guide names in code (`packages/mock/test/guide-examples.test.ts`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUIDES } from './markdown.ts';

const ROOT = join(import.meta.dirname, '../..');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
}

/** The links of `file` that point into this repository, as [target file, anchor]. */
function links(file: string): [string, string | undefined][] {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => {
      const [path, anchor] = target.split('#');
      return [path ? normalize(join(dirname(file), path)) : file, anchor];
    });
}

/** Folders a run makes (ignored by git), so a clone does not have them. */
const MADE_BY_RUNS = new Set(['node_modules', 'dist', 'data', 'artifacts']);
const FOLDERS = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !MADE_BY_RUNS.has(entry.name))
  .map((entry) => entry.name);

/** The paths into this repository's folders a Markdown text names in inline code that do not exist; placeholders (`<family>`, `*`, `…`) are left out. */
function missingPaths(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1]!)
    .filter(
      (path) => FOLDERS.includes(path.split('/')[0]!) && path.includes('/') && !/[<>*{}…]/.test(path) && !existsSync(join(ROOT, path)),
    );
}

describe('the links of the README and the guides', () => {
  it('anchors follow GitHub: "Check your receiver" → check-your-receiver, "Settings → Integrations" → settings--integrations', () => {
    expect(anchorOf('Check your receiver')).toBe('check-your-receiver');
    expect(anchorOf('Configuring webhooks in the browser: Settings → Integrations')).toBe(
      'configuring-webhooks-in-the-browser-settings--integrations',
    );
    expect(links('README.md')).toContainEqual(['docs/integrators.md', undefined]);
    expect(links('docs/ci.md')).toContainEqual(['docs/integrators.md', 'check-your-receiver']);
  });

  it('a path named in code that does not exist is found; a placeholder is not a path', () => {
    expect(missingPaths('each line ends with its status; `packages/mock/test/readme.test.ts` runs them')).toEqual([
      'packages/mock/test/readme.test.ts',
    ]);
    expect(
      missingPaths('`packages/mock/test/guide-examples.test.ts` runs them, `packages/contract/test/proofs-<family>.test.ts` too'),
    ).toEqual([]);
  });

  it.each(GUIDES)('%s: every path of the repository it names in code exists', (file) => {
    expect(missingPaths(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it.each(GUIDES)('%s: every relative link leads to a file, and to a heading where it names one', (file) => {
    const broken = links(file).filter(([target, anchor]) => !existsSync(join(ROOT, target)) || (anchor && !anchors(target).has(anchor)));
    expect(broken).toEqual([]);
  });
});
