// Every process on the machine, read from Linux /proc twice a second while a benchmark runs, and its
// CPU charged to a kind (Chromium, PostgreSQL, a vitest worker, npm, or the script a Node process
// runs): what a run's CPU went to, including what no one waits for (a browser's helpers, a
// database's servers, processes ended by a signal). A process that lives less than half a second
// between two readings is missed; the machine's own figure (proc.ts) counts it.
import { readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { statFields } from './proc.ts';

interface Seen {
  kind: string;
  /** CPU seconds it had used when first read: what ran before the benchmark is not its cost. */
  before: number;
  /** CPU seconds at the latest reading. */
  cpu: number;
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
  if (inPackage) {
    // A bin npm linked is charged to the command's name, anything else to its package.
    const name = inPackage[1] === '.bin' ? inPackage[2]! : inPackage[1]!;
    return name.startsWith('secmon-') ? `${name} (installed)` : name;
  }
  return script.startsWith(root) ? relative(root, script) : script.startsWith('/') ? 'a script in a scratch folder' : script;
}

/** Starts reading /proc; `stop()` ends it and returns CPU seconds per kind, most first. */
export function sampleProcesses(root: string): { stop(): { kind: string; cpu: number; processes: number }[] } {
  const seen = new Map<string, Seen>();
  const read = (first: boolean) => {
    let pids: string[];
    try {
      pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && name !== String(process.pid));
    } catch {
      return;
    }
    for (const pid of pids) {
      try {
        const fields = statFields(Number(pid));
        const key = `${pid}:${fields[19]}`;
        const cpu = (fields[11]! + fields[12]!) / 100;
        const entry = seen.get(key);
        if (entry) {
          entry.cpu = cpu;
          continue;
        }
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
        // Kernel threads have no command line: kept without a kind, so they are read once and left out.
        seen.set(key, { kind: argv.length > 0 ? processKind(argv, root) : '', before: first ? cpu : 0, cpu });
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
      for (const entry of seen.values()) {
        if (!entry.kind) continue;
        const kind = kinds.get(entry.kind) ?? { cpu: 0, processes: 0 };
        kinds.set(entry.kind, { cpu: kind.cpu + entry.cpu - entry.before, processes: kind.processes + 1 });
      }
      return [...kinds].map(([kind, totals]) => ({ kind, ...totals })).sort((a, b) => b.cpu - a.cpu);
    },
  };
}
