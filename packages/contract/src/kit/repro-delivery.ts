// A delivery failure (a wrong signature, a wrong body, a delivery that never came) as a replay that
// stands alone. It starts a receiver of its own (Node built-ins only), replays the requests that
// caused the event with every webhook the run created pointed at that receiver and given a secret
// the replay chooses, waits a bounded time for the delivery, judges it as the kit did (the
// X-Service-Signature and Standard Webhooks HMACs with that secret, a required field, the delivery at
// all), deletes the webhooks it created and prints "reproduced: <headline>" (exit 1) or "not
// reproduced" (exit 0). Written as a Node ES module and as an .http file for httpyac, whose scripts
// run in Node, so the same receiver and judge run there. Keys come from the environment and the
// secret is made at run time: neither is ever written into the files. What to judge is in
// repro-delivery-symptom.ts, the webhook writes retargeted in -webhooks, the record both files are
// written from in -record, the JavaScript they run in -runtime, and each file's writer in -module and -http.
import type { Exchange } from './http.ts';
import type { Reproduction } from './repro.ts';
import { httpFile } from './repro-delivery-http.ts';
import { moduleScript } from './repro-delivery-module.ts';
import { type DeliveryReplayOptions, deliveryReplayOf } from './repro-delivery-record.ts';

/** The Node ES module and the .http file replaying a delivery failure. */
export function deliveryReproduction(exchanges: readonly Exchange[], options: DeliveryReplayOptions): Reproduction {
  const replay = deliveryReplayOf(exchanges, options);
  return { script: moduleScript(replay), runner: 'node', http: httpFile(replay) };
}
