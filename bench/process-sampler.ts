// Every process on the machine, read from Linux /proc twice a second while a benchmark runs, and its
// CPU charged to a kind (Chromium, PostgreSQL, a vitest worker, npm, or the script a Node process
// runs): what a run's CPU went to, including what no one waits for (a browser's helpers, a
// database's servers, processes ended by a signal). A process that lives less than half a second
// between two readings is missed; the machine's own figure (proc.ts) counts it.
import { readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface Seen {
  kind: string;
  user: number;
  system: number;
}

/** The kind a command line is charged to. */
export function processKind(argv: string[], root: string): string {
  const line = argv.join(' ');
  if (/chrom/i.test(argv[0] ?? '')) return 'Chromium';
  if (/postgres|initdb|pg_ctl/.test(argv[0] ?? '')) return 'PostgreSQL';
  if (line.includes('vitest/suppress-warnings')) return 'vitest workers';
  // npm renames its process to `npm …`, which /proc shows as the command line.
  if (argv[0] === 'npm' || (/\bnpm-cli\.js|\/npm\b|\/npx\b/.test(line) && !line.includes('node_modules/.bin'))) return 'npm, npx';
  if (!/(^|\/)node$/.test(argv[0] ?? '')) return (argv[0] ?? '?').split('/').pop() || '?';
  // The script of a Node process: its first argument that is neither an option nor an option's value.
  let script: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (['-e', '--eval', '-p', '--print'].includes(arg)) return 'node -e';
    if (arg === '--import' || arg === '--require' || arg === '-r') i++;
    else if (!arg.startsWith('-')) {
      script = arg;
      break;
    }
  }
  if (!script) return 'node';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)(?:\/([^/]+))?/.exec(script);
  // A bin npm linked: the command's name.
  if (inPackage?.[1] === '.bin') return inPackage[2]!.startsWith('secmon-') ? `${inPackage[2]} (installed)` : inPackage[2]!;
  if (inPackage) return inPackage[1]!.startsWith('secmon-') ? `${inPackage[1]} (installed)` : inPackage[1]!;
  return script.startsWith(root) ? relative(root, script) : script.startsWith('/') ? 'a script in a scratch folder' : script;
}

/** Starts reading /proc; `stop()` ends it and returns CPU seconds per kind, most first. */
export function sampleProcesses(root: string): { stop(): { kind: string; cpu: number; processes: number }[] } {
  const ticks = 100;
  const seen = new Map<string, Seen>();
  const baseline = new Map<string, number>();
  const read = (first: boolean) => {
    let pids: string[];
    try {
      pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && name !== String(process.pid));
    } catch {
      return;
    }
    for (const pid of pids) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // utime [11], stime [12], starttime [19]: a pid reused later is another process.
        const key = `${pid}:${fields[19]}`;
        const [user, system] = [Number(fields[11]) / ticks, Number(fields[12]) / ticks];
        let entry = seen.get(key);
        if (!entry) {
          const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
          // Kernel threads have no command line; what ran before the benchmark is not its cost.
          if (argv.length === 0) continue;
          entry = { kind: processKind(argv, root), user: 0, system: 0 };
          seen.set(key, entry);
          if (first) baseline.set(key, user + system);
        }
        entry.user = user;
        entry.system = system;
      } catch {
        // the process ended between the listing and the reading
      }
    }
  };
  read(true);
  const timer = setInterval(() => read(false), 500);
  return {
    stop() {
      clearInterval(timer);
      read(false);
      const kinds = new Map<string, { cpu: number; processes: number }>();
      for (const [key, entry] of seen) {
        const cpu = entry.user + entry.system - (baseline.get(key) ?? 0);
        const kind = kinds.get(entry.kind) ?? { cpu: 0, processes: 0 };
        kinds.set(entry.kind, { cpu: kind.cpu + cpu, processes: kind.processes + 1 });
      }
      return [...kinds].map(([kind, totals]) => ({ kind, ...totals })).sort((a, b) => b.cpu - a.cpu);
    },
  };
}
