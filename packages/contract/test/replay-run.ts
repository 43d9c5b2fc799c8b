// Runs a written replay on its own, as a team would: `sh` or `node` in a child process (so a target
// in this process keeps answering), with the target and keys in the environment only.
import { execFile } from 'node:child_process';
import type { Reproduction } from '../src/kit/repro.ts';

export interface ReplayRun {
  code: number;
  stdout: string;
}

export function runReplay(
  file: string,
  runner: Reproduction['runner'],
  baseUrl: string,
  keys: { apiKey: string; readKey?: string | undefined },
): Promise<ReplayRun> {
  const env = {
    PATH: process.env.PATH,
    SECMON_BASE_URL: baseUrl,
    SECMON_API_KEY: keys.apiKey,
    ...(keys.readKey ? { SECMON_READ_KEY: keys.readKey } : {}),
    // A delivery that does not come is the fault only some replays look for: waiting long proves nothing more.
    SECMON_EVENT_TIMEOUT: '5000',
  };
  const [command, args] = runner === 'sh' ? ['sh', [file]] : [process.execPath, [file]];
  return new Promise((resolve) =>
    execFile(command, args, { env, encoding: 'utf8', timeout: 60_000 }, (error, stdout) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
    ),
  );
}
