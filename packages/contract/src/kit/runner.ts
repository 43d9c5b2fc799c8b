// The kit's run loop outside any test framework (the CLI and the fault tests use it; the vitest
// suite steps through the same session one test per check): every check of the plan in order,
// until done or stopped, then cleanup and the report.
import type { KitOptions } from './context.ts';
import { type KitRun, openKit, type RunSelection } from './session.ts';

export type { KitRun, RunSelection } from './session.ts';

/** Plans and runs the kit against a target, check after check in plan order, until done or stopped. */
export async function runKit(options: KitOptions, selection: RunSelection = {}): Promise<KitRun> {
  const session = await openKit(options, selection);
  if (session.refused) return session.finish();
  const aborted = new Promise<'aborted'>((resolve) => {
    if (selection.signal?.aborted) resolve('aborted');
    selection.signal?.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  let interrupted = false;
  try {
    for (const planned of session.plan) {
      // Stopped between checks: the next one is not started.
      if (selection.signal?.aborted) {
        interrupted = true;
        break;
      }
      const result = await Promise.race([session.run(planned), aborted]);
      if (result === 'aborted') {
        interrupted = true;
        break;
      }
      selection.onResult?.(result, session.results.length, session.plan.length);
    }
  } catch (error) {
    await session.finish(true);
    throw error;
  }
  return session.finish(interrupted);
}
