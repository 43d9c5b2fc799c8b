// A child process's own accounting, read from Linux /proc: what a benchmark charges to the server
// it starts rather than to itself. NaN elsewhere.
import { readFileSync } from 'node:fs';

/** User + system CPU ms of a process. */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Resident memory of a process, MiB. */
export function rssMiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
  } catch {
    return Number.NaN;
  }
}
