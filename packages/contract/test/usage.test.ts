// The kit's options are written once (kit/usage.ts): `--help` prints them and the README's
// *Options* table must be the same rows, so neither can say something the other does not.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ACCEPTED, OPTIONS, optionsTable, usage } from '../src/kit/usage.ts';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('the options, in --help and in the README', () => {
  it('the README holds the options table exactly as the kit renders it', () => {
    const start = README.indexOf('| option | what it does |');
    const table = README.slice(start, README.indexOf('\n\n', start));
    expect(table).toBe(optionsTable());
  });

  it('`--help` prints the same options, each of them', () => {
    const help = execFileSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    expect(help).toBe(`${usage()}\n`);
    for (const option of OPTIONS) for (const flag of option.flags.match(/--[a-z-]+/g) ?? []) expect(help).toContain(flag);
  });

  it('every option the CLI accepts is documented, and every documented one is accepted', () => {
    const documented = new Set(OPTIONS.flatMap((option) => option.flags.match(/--[a-z-]+/g) ?? []));
    expect([...documented].sort()).toEqual(
      Object.keys(ACCEPTED)
        .map((name) => `--${name}`)
        .sort(),
    );
  });

  it('an option the CLI does not know is refused with a pointer to --help, not a page of usage', () => {
    let refused = '';
    try {
      execFileSync(process.execPath, [CLI, '--no-such-option'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      refused = String((error as { stderr?: string }).stderr);
    }
    expect(refused).toBe("secmon-contract: Unknown option '--no-such-option'\nRun 'secmon-contract --help' for its usage.\n");
  });
});
