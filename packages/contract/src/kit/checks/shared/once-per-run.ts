// A setup a check starts from its `prepare` (before the first check, so its waits overlap the run)
// and awaits when it runs: started once per run, outside any check's scope.
import type { KitContext } from '../../context.ts';

export function oncePerRun<A extends unknown[], T>(
  work: (ctx: KitContext, ...args: A) => Promise<T>,
): (ctx: KitContext, ...args: A) => Promise<T> {
  const runs = new WeakMap<KitContext, Promise<T>>();
  return (ctx, ...args) => {
    let run = runs.get(ctx);
    if (!run) {
      run = ctx.shared(() => work(ctx, ...args));
      // Judged by the check that awaits it; a failure here is reported there.
      run.catch(() => undefined);
      runs.set(ctx, run);
    }
    return run;
  };
}
