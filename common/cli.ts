// How the commands the packages ship (each package.json's `bin`) answer `--help` and a mistake,
// alike: `--help` or `-h` prints the usage on stdout and exits 0; a usage error prints what was
// wrong and one line pointing at --help on stderr and exits 2, so the mistake is not scrolled away
// by a page of usage.

/** The `parseArgs` option every command takes. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

/** What a command prints for a usage error: each problem, then where its usage is. */
export function usageError(command: string, problems: string | string[]): string {
  const lines = [problems].flat().map((problem) => `${command}: ${problem}`);
  return `${lines.join('\n')}\nRun '${command} --help' for its usage.\n`;
}
