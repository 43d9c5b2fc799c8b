// The guides and what this repository builds; the shell commands a Markdown guide shows: every line
// of its ```sh blocks, continuation lines joined, with the comment it ends with (`# ... → 201` names
// the status a request gets); and a guide's `curl` run against a test's server.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { manifestOf, PACKAGES, type PackageName } from '../../scripts/packages.ts';

const ROOT = join(import.meta.dirname, '../..');

/**
 * The README, every guide under docs/, the contributors' guide and each package's README (the one
 * its users read on the registry), as paths from the repository's root.
 */
export const GUIDES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`),
  'CONTRIBUTING.md',
  ...Object.values(PACKAGES).map((spec) => `${spec.dir}/README.md`),
];

/** The manifests of the packages this repository builds. */
export const OUR_PACKAGES = (Object.keys(PACKAGES) as PackageName[]).map(manifestOf);
export const OUR_NAMES = new Set(OUR_PACKAGES.map((pkg) => pkg.name));
export const OUR_BINS = new Set(OUR_PACKAGES.flatMap((pkg) => Object.keys(pkg.bin ?? {})));
/** The file names of the tarballs `npm run pack` makes. */
export const TARBALLS = new Set(OUR_PACKAGES.map((pkg) => `${pkg.name}-${pkg.version}.tgz`));

export interface ShellCommand {
  file: string;
  command: string;
  /** The comment on the command's line, or on the lines just above it. */
  comment: string;
}

/** The ```sh blocks of `file` (relative to the root), as text. */
export function shellBlocks(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

export function shellCommands(file: string, block: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let above = '';
  for (const line of block.replace(/\\\n\s*/g, ' ').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') above = '';
    else if (trimmed.startsWith('#')) above = trimmed;
    else {
      const inline = /\s#\s(.*)$/.exec(trimmed);
      commands.push({ file, command: (inline ? trimmed.slice(0, inline.index) : trimmed).trim(), comment: inline?.[1] ?? above });
    }
  }
  return commands;
}

/** The statuses a comment ends with (`→ 404, then 409`); none when it names none. */
export const statusesOf = (comment: string) => ((/→ (.+)$/.exec(comment)?.[1] ?? '').match(/\b\d{3}\b/g) ?? []).map(Number);

/** Runs a guide's `curl` with `guideHost` (`localhost:3000`) swapped for `host`; resolves with the status it got. */
export function curlStatus(command: string, guideHost: string, host: string): Promise<number> {
  const line = `${command.replaceAll(guideHost, host)} -o /dev/null -w '%{http_code}'`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(Number(out.trim())));
  });
}
