// A PostgreSQL cluster that stops answering without going away: its postmaster and every backend
// stopped (SIGSTOP), so connections stay open and queries wait, until resumed (SIGCONT).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function clusterPids(dataDir: string): number[] {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
  return [postmaster, ...children];
}

/** Stops the cluster in `dataDir`; the returned function resumes every process it stopped. */
export function stallCluster(dataDir: string): () => void {
  const stopped = clusterPids(dataDir);
  for (const pid of stopped) process.kill(pid, 'SIGSTOP');
  return () => {
    for (const pid of stopped) process.kill(pid, 'SIGCONT');
  };
}
