// The projects of the package tests: fresh folders outside the repository with packed packages
// installed from the run's tarballs, removed when the test file ends.

import { once } from 'node:events';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createProject, npmInstall } from '../../scripts/outsider.ts';
import { root } from '../../scripts/pipeline.ts';
import { packedTarballs, type Tarballs } from './tarballs.ts';

/** The repository's manifest: registry packages installed beside ours take its exact ranges. */
export const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new project folder outside the repository (see createProject), removed after the test file. */
export function scratchProject(label: string, files?: Record<string, string>): string {
  const dir = createProject(label, files);
  projects.push(dir);
  return dir;
}

export interface Installed {
  /** The project folder. */
  dir: string;
  /** Every packed package of the run, installed or not. */
  tarballs: Tarballs;
}

export interface InstallOptions {
  /** Files written into the project. */
  files?: Record<string, string>;
  /** A folder of the repository copied into the project first (an example with its own package.json). */
  copyOf?: string;
  /** Registry packages installed with the tarballs (`name@version`). */
  registry?: string[];
}

/** Before the describe's (or file's) tests: a clean project with the chosen packed packages installed. */
export function installedBeforeAll(label: string, chosen: (tarballs: Tarballs) => string[], options: InstallOptions = {}): Installed {
  const installed = { dir: '', tarballs: {} as Tarballs };
  beforeAll(async () => {
    installed.tarballs = await packedTarballs();
    installed.dir = scratchProject(label, options.files);
    if (options.copyOf) cpSync(options.copyOf, installed.dir, { recursive: true });
    await npmInstall(installed.dir, [...chosen(installed.tarballs), ...(options.registry ?? [])]);
  }, 300_000);
  return installed;
}

/** The command npm linked for a package's `bin` in an installed project: what the project's scripts run. */
export const installedBin = (dir: string, name: string): string => join(dir, 'node_modules/.bin', name);

/** Starts `server` on a free port of the loopback interface; resolves to its base URL. */
export async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
