// The retry schedule the document states: when the first retry of a failed delivery is due, and
// how much jitter it may have.
import type { KitContext } from '../../context.ts';

export interface RetryTiming {
  /** Why the first-retry and Retry-After waits are not judged (a target with a compressed schedule). */
  skip?: string;
}

/** The first retry's wait the document states ("retried after waits of about 5 s, ..."), in ms, and the jitter. */
export function firstRetry(ctx: KitContext): { ms: number; jitter: number } | undefined {
  const text = ctx.model.doc.info.description ?? '';
  const wait = /retried after waits of about (\d+) s/.exec(text);
  const jitter = /±(\d+) ?% jitter/.exec(text);
  return wait ? { ms: Number(wait[1]) * 1000, jitter: jitter ? Number(jitter[1]) / 100 : 0 } : undefined;
}
