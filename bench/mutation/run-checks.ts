// Some of the kit's checks against a target, for a mutant whose file only they reach:
// `node bench/mutation/run-checks.ts <base URL> <check>,<check>...`. Exit 0 when none failed nor
// fails the gate (what a full run's exit 0 means for these checks), 1 otherwise; each failure's
// report on stdout.
import { isCheckName } from '../../packages/contract/src/kit/registry.ts';
import { runKit } from '../../packages/contract/src/kit/runner.ts';
import { kitOptions } from './target.ts';

const [baseUrl, list] = process.argv.slice(2);
const checks = (list ?? '').split(',').filter(Boolean);
const unknown = checks.filter((check) => !isCheckName(check));
if (!baseUrl || checks.length === 0 || unknown.length > 0) {
  process.stderr.write(
    `usage: run-checks.ts <base URL> <check>,<check>...${unknown.length > 0 ? ` (no such check: ${unknown.join(', ')})` : ''}\n`,
  );
  process.exit(2);
}
const wanted = new Set(checks);
const run = await runKit(kitOptions(baseUrl), { only: (planned) => wanted.has(planned.check) });
const judged = run.results.filter((result) => result.outcome === 'failed' || result.gate);
for (const result of judged) process.stdout.write(`✗ ${result.id}\n${result.error ?? result.gate}\n`);
process.stdout.write(`${run.results.length} checks of ${checks.join(', ')}: ${judged.length} failed\n`);
process.exit(judged.length === 0 && run.results.length > 0 ? 0 : 1);
