// Every command the packages ship (each package.json's `bin`, and the kit's `receiver`), run from
// its source as its bin runs it: `--help` and `-h` print the usage in the installed command's name,
// exit 0; an unknown option is refused with the error and one line pointing at --help, exit 2.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestOf, PACKAGES, type PackageName } from '../../scripts/packages.ts';
import { root } from '../../scripts/pipeline.ts';

interface Command {
  name: string;
  source: string;
  args: string[];
}

const bins: Command[] = (Object.keys(PACKAGES) as PackageName[]).flatMap((pkg) =>
  Object.entries(manifestOf(pkg).bin ?? {}).map(([name, file]) => {
    const entry = /^dist\/(.+)\.js$/.exec(file)![1]!;
    return { name, source: join(root, (PACKAGES[pkg].entries as Record<string, string>)[entry]!), args: [] };
  }),
);
const contract = bins.find((bin) => bin.name === 'secmon-contract')!;
const COMMANDS = [...bins, { name: 'secmon-contract receiver', source: contract.source, args: ['receiver'] }];

const run = ({ source, args }: Command, ...more: string[]) =>
  spawnSync(process.execPath, [source, ...args, ...more], { encoding: 'utf8', timeout: 20_000 });

describe('the commands the packages ship', () => {
  it('are secmon-mock, secmon-events and secmon-contract', () => {
    expect(bins.map((bin) => bin.name).sort()).toEqual(['secmon-contract', 'secmon-events', 'secmon-mock']);
  });

  it.each(COMMANDS)('$name --help and -h print its usage and exit 0', (command) => {
    const help = run(command, '--help');
    expect(help.stderr).toBe('');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^usage: ${command.name} `));
    expect(run(command, '-h').stdout).toBe(help.stdout);
  });

  it.each(COMMANDS)('$name refuses an unknown option with one line pointing at --help, exit 2', (command) => {
    const refused = run(command, '--no-such-option');
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`${command.name}: Unknown option '--no-such-option'\nRun '${command.name} --help' for its usage.\n`);
    expect(refused.status).toBe(2);
  });
});
