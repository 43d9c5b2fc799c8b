// Writes each failure's reproduction (repro.ts, repro-delivery.ts) as two files in a folder:
// `<n>-<check id>.sh` (or `.mjs` for a delivery's, run with node; executable) and `.http`, numbered
// in the order the failures were reported.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult } from './results.ts';

/** Writes the reproductions of the failed results; returns the script written for each, by result id. */
export function writeReproductions(dir: string, results: CheckResult[]): Map<string, string> {
  const written = new Map<string, string>();
  const failed = results.filter((result) => result.outcome === 'failed' && result.reproduction);
  if (failed.length === 0) return written;
  mkdirSync(dir, { recursive: true });
  failed.forEach((result, index) => {
    const name = `${String(index + 1).padStart(2, '0')}-${result.id
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 80)}`;
    const { script: text, runner } = result.reproduction!;
    const script = join(dir, `${name}.${runner === 'sh' ? 'sh' : 'mjs'}`);
    writeFileSync(script, text, { mode: 0o755 });
    writeFileSync(join(dir, `${name}.http`), result.reproduction!.http);
    written.set(result.id, script);
  });
  return written;
}
