// What a delivery failure showed, in terms a replay can judge again on a delivery of its own: a
// signature that does not verify, a required field missing, no delivery at all.
import { missingField } from './repro-judge.ts';
import type { Violation } from './violation.ts';

/** What the faulty delivery showed, judged again on the replay's own delivery. */
export type DeliveryFault =
  | { signature: 'X-Service-Signature' | 'webhook-signature' }
  | { missing: { at: string; name: string } }
  | { absent: true };

export interface DeliverySymptom {
  event: string;
  fault: DeliveryFault;
}

/** The event of a webhook's label (`findingCreated (webhook finding.created)`): what a violation of a delivery is about. */
export function webhookEventOf(violation: Violation): string | undefined {
  return /\(webhook ([^)\s]+)\)$/.exec(violation.subject?.operation ?? '')?.[1];
}

/** The symptom a replay can judge on its own delivery, for a violation of a webhook; undefined when it cannot. */
export function deliverySymptomOf(violation: Violation): DeliverySymptom | undefined {
  const event = webhookEventOf(violation);
  if (!event) return undefined;
  const message = violation.observed.split('\n')[0] ?? '';
  if (/^X-Service-Signature (does not verify|is missing on a signed webhook)/.test(message))
    return { event, fault: { signature: 'X-Service-Signature' } };
  if (/^(no webhook-signature entry is|webhook-signature is missing on a signed webhook)/.test(message))
    return { event, fault: { signature: 'webhook-signature' } };
  if (message.startsWith(`no ${event} delivery reached the receiver`)) return { event, fault: { absent: true } };
  const missing = missingField(violation);
  return missing ? { event, fault: { missing } } : undefined;
}
