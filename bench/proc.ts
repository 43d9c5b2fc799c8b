// A child process's own accounting, read from Linux /proc: what a benchmark charges to the server
// it starts rather than to itself. NaN elsewhere.
import { readFileSync } from 'node:fs';

/**
 * The fields of /proc/<pid>/stat after the command name (which may itself hold ") "): utime [11],
 * stime [12], cutime [13], cstime [14], in 10 ms ticks; starttime [19], which tells a reused pid apart.
 */
export function statFields(pid: number | 'self'): number[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat
    .slice(stat.lastIndexOf(') ') + 2)
    .split(' ')
    .map(Number);
}

/** User + system CPU ms of a process. */
export function cpuMs(pid: number): number {
  try {
    const fields = statFields(pid);
    return (fields[11]! + fields[12]!) * 10;
  } catch {
    return Number.NaN;
  }
}

/** This process's user + system CPU seconds: its own, and the children's it has waited for. */
export function selfCpuSeconds(): { own: number; children: number } {
  const fields = statFields('self');
  return { own: (fields[11]! + fields[12]!) / 100, children: (fields[13]! + fields[14]!) / 100 };
}

/** Resident memory of a process, MiB. */
export function rssMiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** The whole machine's CPU time so far, in ticks, from /proc/stat's first line: every process and the kernel's own work. */
export interface MachineTicks {
  user: number;
  system: number;
  idle: number;
  total: number;
}

export function machineTicks(): MachineTicks | undefined {
  try {
    // cpu  user nice system idle iowait irq softirq steal ...
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .split(/\s+/)
      .slice(1, 9)
      .map(Number);
    return {
      user: user! + nice!,
      system: system! + irq! + softirq!,
      idle: idle! + iowait!,
      total: user! + nice! + system! + idle! + iowait! + irq! + softirq! + steal!,
    };
  } catch {
    return undefined;
  }
}

/** How busy the machine was between two readings: the share of all cores, user and system, and the CPU seconds spent. */
export function machineBusy(
  before: MachineTicks | undefined,
  after: MachineTicks | undefined,
): { busy: number; user: number; system: number; cpuSeconds: number } | undefined {
  if (!before || !after || after.total === before.total) return undefined;
  const total = after.total - before.total;
  const busyTicks = total - (after.idle - before.idle);
  return {
    busy: busyTicks / total,
    user: (after.user - before.user) / total,
    system: (after.system - before.system) / total,
    cpuSeconds: busyTicks / 100,
  };
}
