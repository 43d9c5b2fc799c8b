// The headers of one webhook delivery (brief §6), built in one place so the real dispatcher and
// the mock event sender cannot drift apart. The signature itself comes from lib/signing.ts.
import { loadDocument } from './document.ts';
import { SIGNATURE_HEADER, sign } from './signing.ts';

/** Names the contract version the notifications follow, which is also every package's version. */
export const USER_AGENT = `SecMon-Webhooks/${loadDocument().info.version}`;

export interface DeliveryHeaderInput {
  /** The exact bytes that will be sent; the signature covers these and nothing else. */
  body: string | Uint8Array;
  eventType: string;
  /** A UUID per event and webhook, identical on every retry. */
  deliveryId: string;
  webhookId: string;
  /** The webhook's secret; without one the delivery carries no signature header. */
  secret: string | null | undefined;
}

/** Request headers of a delivery, lower-case names. */
export function deliveryHeaders({ body, eventType, deliveryId, webhookId, secret }: DeliveryHeaderInput): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-event': eventType,
    'x-service-delivery': deliveryId,
    'x-service-webhook-id': webhookId,
  };
  if (secret) headers[SIGNATURE_HEADER.toLowerCase()] = sign(body, secret);
  return headers;
}
