// Every command the guides (the README, docs/, CONTRIBUTING.md, the package READMEs) show, checked
// so none drifts: each `curl` to the reference server (localhost:3000) runs, in order, against one
// started as `npm start` starts it (development mode, the development keys) and must get a 2xx (or
// the status its comment names); each `npm start` is given its flags and environment and must
// configure; each npm script, tarball, package and command-line program named must exist. The
// frontend guide's mock requests (localhost:4010) run in packages/mock/test/guide-examples.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { type RunningServer, startServer } from '../../server/server.ts';
import { curlStatus, GUIDES, OUR_BINS, OUR_PACKAGES, shellBlocks, shellCommands, statusesOf, TARBALLS } from './markdown.ts';

const ROOT = join(import.meta.dirname, '../..');
const SCRIPTS: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
/** What a guide may install beside our tarballs: what our packages depend on (msw, a peer of secmon-msw). */
const THEIR_DEPENDENCIES = new Set(OUR_PACKAGES.flatMap((pkg) => Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies })));

const commands = GUIDES.flatMap((file) => shellBlocks(file).flatMap((block) => shellCommands(file, block)));

/** `A=1 B='x y' npm start -- --port 4000` → the environment and the words after it. */
function parse(command: string): { env: Record<string, string>; words: string[] } {
  // Shell words: quoted parts join the unquoted ones beside them, and lose their quotes.
  const words = [...command.matchAll(/(?:[^\s'"]+|'[^']*'|"[^"]*")+/g)].map((match) => match[0].replace(/'([^']*)'|"([^"]*)"/g, '$1$2'));
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_]+=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  return { env, words };
}

/** Why a command that is not a request is wrong, or undefined when everything it names exists. */
function problemWith(command: string): string | undefined {
  for (const part of command.split(/\s*&&\s*/)) {
    const { env, words } = parse(part);
    const [program, verb, ...rest] = words;
    const afterDashes = rest.includes('--') ? rest.slice(rest.indexOf('--') + 1) : [];
    if (program === 'npm' && verb === 'ci') continue;
    if (program === 'npm' && (verb === 'start' || verb === 'test')) {
      if (verb === 'start') loadConfig(env, afterDashes);
      continue;
    }
    if (program === 'npm' && verb === 'run') {
      if (!(rest[0]! in SCRIPTS)) return `npm run ${rest[0]}: no such script`;
      continue;
    }
    if (program === 'npm' && verb === 'install') {
      const unknown = rest.filter((word) => !word.startsWith('-') && !TARBALLS.has(basename(word)) && !THEIR_DEPENDENCIES.has(word));
      if (unknown.length > 0) return `npm install ${unknown.join(' ')}: neither a tarball of this repository nor a dependency of one`;
      continue;
    }
    if (program === 'npx') {
      const bin = [verb, ...rest].find((word) => !word!.startsWith('-'))!;
      if (!OUR_BINS.has(bin) && !existsSync(join(ROOT, 'node_modules/.bin', bin))) return `npx ${bin}: no such program`;
      continue;
    }
    // Replays a script a kit run wrote (its reproductions: shell, or Node for a delivery): there is no file to look for.
    if (program === 'sh' || (program === 'node' && /\/repro\/[^ ]+\.mjs$/.test(verb ?? ''))) continue;
    return `no check knows ${program}`;
  }
  return undefined;
}

describe('the commands of the README and the guides', () => {
  it('are found in every guide', () => {
    expect(GUIDES).toEqual(expect.arrayContaining(['README.md', 'docs/integrators.md', 'docs/frontend.md', 'docs/operators.md']));
    expect(commands.filter((command) => command.file === 'README.md').length).toBeGreaterThanOrEqual(6);
  });

  it('finds a command that names what does not exist', () => {
    expect(problemWith('npm run no-such-script')).toBe('npm run no-such-script: no such script');
    expect(problemWith('node scripts/anything.mjs')).toBe('no check knows node');
    expect(problemWith('npx no-such-program --flag')).toBe('npx no-such-program: no such program');
    expect(problemWith('npm install left-pad')).toBe('npm install left-pad: neither a tarball of this repository nor a dependency of one');
    expect(problemWith('npm install -D /path/to/secmon-mock-0.9.0.tgz msw')).toBe(
      'npm install /path/to/secmon-mock-0.9.0.tgz: neither a tarball of this repository nor a dependency of one',
    );
    expect(() => problemWith('npm start -- --port 99999')).toThrow(/PORT/);
  });

  const others = commands.filter((command) => !command.command.startsWith('curl '));
  it.each(others.map((command) => [`${command.file}: ${command.command}`, command] as const))('%s', (_label, { command }) => {
    expect(problemWith(command)).toBeUndefined();
  });
});

describe('the requests of the README and the guides to the reference server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    // As `npm start` starts it, on a free port and in memory, without delivering (the guides'
    // receivers are not running).
    server = await startServer(loadConfig({ SECMON_LOG_LEVEL: 'silent' }, ['--db', ':memory:', '--port', '0']), { workers: [] });
  });
  afterAll(() => server?.close());

  const requests = commands.filter((command) => command.command.startsWith('curl ') && command.command.includes('localhost:3000'));
  it('are there', () => {
    expect(requests.length).toBeGreaterThanOrEqual(5);
  });

  it.each(requests.map((request) => [`${request.file}: ${request.command}`, request] as const))('%s', async (_label, request) => {
    const status = await curlStatus(request.command, 'localhost:3000', new URL(server.url).host);
    const [expected] = statusesOf(request.comment);
    if (expected === undefined) expect(status >= 200 && status < 300, `answered ${status}`).toBe(true);
    else expect(status).toBe(expected);
  });
});
