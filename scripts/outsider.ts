// What an outsider has: the packed tarballs and a fresh project folder of their own, far from this
// checkout, with npm and whatever Node is on their PATH. Nothing here links to this repository's
// node_modules: every package is installed from its tarball by npm.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

/** A new folder outside the repository with a package.json and the given files. */
export function createProject(label: string, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), `secmon-outsider-${label}-`));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `outsider-${label}`, private: true, type: 'module' }, null, 2));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/**
 * The environment of a shell outside npm: no npm_* variables from our own `npm test` (npm would
 * read them as configuration), and a PATH without this repository's node_modules/.bin, so `node`
 * is the machine's own unless `node` names another binary to put first.
 */
export function outsiderEnv(node?: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'INIT_CWD'));
  const path = (env.PATH ?? '').split(delimiter).filter((entry) => entry && !entry.includes('node_modules'));
  return { ...env, PATH: [...(node ? [dirname(node)] : []), ...path].join(delimiter), NO_COLOR: '1', FORCE_COLOR: '0' };
}

/** The first `node` on PATH outside any node_modules: the Node an outsider's shell runs. */
export function machineNode(): string {
  for (const dir of (outsiderEnv().PATH ?? '').split(delimiter)) {
    try {
      accessSync(join(dir, 'node'), constants.X_OK);
      return join(dir, 'node');
    } catch {
      // not in this directory
    }
  }
  throw new Error('no node on PATH outside node_modules');
}

export interface Ran {
  code: number | null;
  stdout: string;
  /** stdout and stderr as they came. */
  output: string;
}

/**
 * Runs a command without blocking this process (the reference server under test lives here), and
 * kills it if it outlives `timeoutMs`.
 */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? outsiderEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, output });
    });
  });
}

/** `npm install` of tarballs (and registry packages) into a project, as its owner would type it. */
export async function npmInstall(dir: string, specs: string[]): Promise<void> {
  const result = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...specs], { cwd: dir, timeoutMs: 240_000 });
  if (result.code !== 0) throw new Error(`npm install ${specs.join(' ')} failed:\n${result.output}`);
}

/** Every installed package (name@version), our own included, read from node_modules. */
export function installedPackages(dir: string): string[] {
  const found: string[] = [];
  const walk = (modules: string) => {
    let entries: string[];
    try {
      entries = readdirSync(modules);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.startsWith('.')) continue;
      const names = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((child) => `${entry}/${child}`) : [entry];
      for (const name of names) {
        found.push(name);
        walk(join(modules, name, 'node_modules'));
      }
    }
  };
  walk(join(dir, 'node_modules'));
  return found;
}
