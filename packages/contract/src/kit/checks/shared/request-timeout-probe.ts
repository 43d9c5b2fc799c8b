// A request whose header fields stop arriving, sent once per run on a connection of its own: what
// the target answers when its header time-out passes.
import type { KitContext } from '../../context.ts';
import { type RawAnswer, rawRequest } from '../../raw-http.ts';
import { crudNamed } from './rule-support.ts';

/** How long the kit waits for the 408 of a request whose header fields stop arriving: 10 s stated, plus slack. */
const HEADERS_WAIT_MS = 15_000;

const slowProbes = new WeakMap<KitContext, Promise<RawAnswer>>();

/**
 * A request whose header fields stop arriving, to be answered `408` once the target's header
 * time-out passes. Started once per run, as early as the plan allows (the check's `prepare`), so the
 * wait overlaps the other checks instead of adding to them.
 */
export function startRequestTimeoutProbe(ctx: KitContext): Promise<RawAnswer> {
  let probe = slowProbes.get(ctx);
  if (!probe) {
    const base = ctx.http.baseUrl;
    const list = crudNamed(ctx, 'policies').list;
    const request = `GET ${new URL(base).pathname.replace(/\/+$/, '')}${list.path} HTTP/1.1\r\nHost: ${new URL(base).host}\r\nX-Kit-Slow: `;
    probe = rawRequest(base, request, HEADERS_WAIT_MS);
    slowProbes.set(ctx, probe);
  }
  return probe;
}
