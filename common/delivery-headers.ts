// The headers of one webhook delivery, built in one place so the real dispatcher and
// the mock event sender cannot drift apart. The signature itself comes from packages/api/src/signing.ts.
import { loadDocument } from '../packages/api/src/document.ts';
import { SIGNATURE_HEADER, sign } from '../packages/api/src/signing.ts';
import {
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  standardSignatureHeader,
} from '../packages/api/src/standard-webhooks.ts';

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
  /** The secret it replaced, when the sender still signs with it: signed for too, in `webhook-signature` only. */
  previousSecret?: string | null | undefined;
  /** Unix seconds of this attempt (`webhook-timestamp`); now by default. */
  timestamp?: number;
}

/** Request headers of a delivery, lower-case names. */
export function deliveryHeaders({
  body,
  eventType,
  deliveryId,
  webhookId,
  secret,
  previousSecret,
  timestamp,
}: DeliveryHeaderInput): Record<string, string> {
  const seconds = timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-event': eventType,
    'x-service-delivery': deliveryId,
    'x-service-webhook-id': webhookId,
    [STANDARD_ID_HEADER]: deliveryId,
    [STANDARD_TIMESTAMP_HEADER]: String(seconds),
  };
  if (secret) {
    headers[SIGNATURE_HEADER.toLowerCase()] = sign(body, secret);
    // Newest first.
    const secrets = previousSecret ? [secret, previousSecret] : [secret];
    headers[STANDARD_SIGNATURE_HEADER] = standardSignatureHeader(deliveryId, seconds, body, secrets);
  }
  return headers;
}
