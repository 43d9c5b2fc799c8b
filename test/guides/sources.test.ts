// No guide fetches a package of this repository by a name someone else could own. None of the
// names is on the public npm registry, so `npx -y <name>`, or `npx <name>` where it is not
// installed, runs whatever a stranger publishes under it, with the API key in its environment
// (docs/ci.md, *Before the packages are published*). So in every guide, in prose, inline code and
// fenced blocks of any language alike: each `npx` of our packages or programs says `--no-install`,
// no `npm install` names one of our packages (a registry would resolve it), and each tarball named
// is one `npm run pack` makes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUIDES, OUR_BINS, OUR_NAMES, OUR_PACKAGES, TARBALLS } from './markdown.ts';

const ROOT = join(import.meta.dirname, '../..');

/** `secmon-contract@1.1.0` → `secmon-contract`. */
const nameOf = (spec: string) => spec.replace(/(?<=.)@.*$/, '');
const isOurs = (spec: string) => OUR_NAMES.has(nameOf(spec)) || OUR_BINS.has(nameOf(spec));

interface Run {
  /** As written, up to the program: `npx -y secmon-contract`. */
  text: string;
  ours: boolean;
  safe: boolean;
}

/**
 * A Markdown text as commands are read from it: a fenced block line by line (each line a command),
 * the prose with its lines joined, so a code span the text wraps reads whole.
 */
const joinedProse = (markdown: string) =>
  markdown
    .split(/(```[\s\S]*?```)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replaceAll('\n', ' ')))
    .join('\n');

/** Every `npx …` and `npm exec …` of a text, read up to the end of its line or code span. */
function runs(markdown: string): Run[] {
  const text = joinedProse(markdown);
  return [...text.matchAll(/\b(npx|npm exec)\b([^`\n]*)/g)].map((match) => {
    const words = match[2]!.trim().split(/\s+/).filter(Boolean);
    const named: string[] = [];
    let i = 0;
    for (; i < words.length && words[i]!.startsWith('-'); i++) {
      const [flag, value] = words[i]!.split('=');
      if (flag === '-p' || flag === '--package') named.push(value ?? words[++i] ?? '');
    }
    if (i < words.length) named.push(words[i]!);
    return {
      text: [match[1], ...words.slice(0, i + 1)].join(' '),
      ours: named.some(isOurs),
      safe: words.slice(0, i).includes('--no-install'),
    };
  });
}

/** Why each command of a text that fetches one of our packages could fetch someone else's. */
function unsafeSources(markdown: string): string[] {
  const text = joinedProse(markdown);
  const problems = runs(markdown)
    .filter((run) => run.ours && !run.safe)
    .map((run) => `${run.text}: without --no-install npx fetches the name from the registry`);
  // An install's words end where the command does: a comment, `&&`, `;` or the next command.
  for (const match of text.matchAll(/\bnpm (?:install|i|add)\b([^`\n#&;|]*?)(?=\s(?:npx|npm)\s|[`\n#&;|]|$)/g)) {
    const byName = match[1]!.split(/\s+/).filter((word) => OUR_NAMES.has(nameOf(word)));
    if (byName.length > 0) problems.push(`npm install ${byName.join(' ')}: a registry resolves the name`);
  }
  for (const [tarball] of text.matchAll(/\bsecmon-[a-z-]+-\d+\.\d+\.\d+\.tgz\b/g)) {
    if (!TARBALLS.has(tarball)) problems.push(`${tarball}: not a tarball npm run pack makes (${[...TARBALLS].join(', ')})`);
  }
  return problems;
}

describe('the guides fetch our packages from a source their reader controls', () => {
  const [kit] = OUR_PACKAGES.filter((pkg) => pkg.name === 'secmon-contract');
  const tarball = `${kit!.name}-${kit!.version}.tgz`;

  it('finds npx of ours without --no-install, an install of ours by name, and a tarball npm run pack does not make', () => {
    expect(unsafeSources('Any other CI: `npx -y secmon-contract --base-url "$URL" --api-key "$KEY"`')).toEqual([
      'npx -y secmon-contract: without --no-install npx fetches the name from the registry',
    ]);
    expect(unsafeSources('      - run: npx --yes secmon-contract@1.1.0 receiver --url "$URL"')).toHaveLength(1);
    expect(unsafeSources('Any other CI: `npx --yes\nsecmon-contract --base-url "$URL"`, then')).toHaveLength(1);
    expect(unsafeSources('npm run mock   # static examples (npx secmon-mock outside this repository)')).toHaveLength(1);
    expect(unsafeSources('npx -p secmon-mock secmon-events --url http://localhost:8000/hooks')).toHaveLength(1);
    expect(unsafeSources('npm exec secmon-contract -- --help')).toHaveLength(1);
    expect(unsafeSources('npm install --save-dev secmon-msw msw secmon-api')).toEqual([
      'npm install secmon-msw secmon-api: a registry resolves the name',
    ]);
    expect(unsafeSources('npm install -D ./secmon-contract-0.9.0.tgz')).toEqual([
      expect.stringMatching(/^secmon-contract-0\.9\.0\.tgz: not a tarball/),
    ]);
    expect(
      unsafeSources(
        [
          `npm install -D ./${tarball} msw`,
          'npx --no-install secmon-contract --help',
          '`npx --no-install secmon-mock`, then `npx msw init public --save`; the kit never lets npx fetch it',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('reads the runs of our programs the guides show', () => {
    const ours = GUIDES.flatMap((file) => runs(readFileSync(join(ROOT, file), 'utf8'))).filter((run) => run.ours);
    expect(ours.length).toBeGreaterThanOrEqual(20);
    expect(new Set(ours.map((run) => run.text.split(' ').at(-1)))).toEqual(new Set(['secmon-contract', 'secmon-mock', 'secmon-events']));
  });

  it.each(GUIDES)('%s: every npx of ours says --no-install, every install of ours names its tarball', (file) => {
    expect(unsafeSources(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });
});
