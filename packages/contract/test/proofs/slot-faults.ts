// The faults of the slot-sharing proofs: a service that keeps more attempts open than it counts, or
// fewer than the document promises each webhook.
import { forwarded } from '../fault-dsl.ts';
import type { Fault } from '../fault-proxy.ts';

/** Every delivery sent twice at once: twice the attempts open that the service counts. */
export const sentTwiceAtOnce = forwarded(async (forward) => {
  const [first, second] = await Promise.all([forward(), forward()]);
  await second.arrayBuffer();
  return first;
});

/** One delivery at a time over all webhooks: a receiver that holds its request holds every webhook's. */
export function oneAtATime(): Fault {
  let last: Promise<unknown> = Promise.resolve();
  return forwarded((forward) => {
    const next = last.then(forward);
    last = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  });
}
