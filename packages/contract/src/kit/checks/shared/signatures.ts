// The Standard Webhooks headers every delivery carries beside X-Service-Signature, judged on every
// delivery the event checks receive: `webhook-id` is the X-Service-Delivery value, `webhook-timestamp`
// Unix seconds of the attempt (within the 5-minute tolerance of the kit's clock), `webhook-signature`
// `v1,` base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the secret's UTF-8 bytes (any
// entry matching is enough), absent without a secret. Signatures and the tolerance come from the
// kit's oracle: the verdict does not reuse the code the reference server signs with.

import { loadDocument } from 'secmon-api/src/document';
import type { Check } from '../../failure.ts';
import { entryOver, SIGNATURE_HEADER, sameSignature, serviceSignature, standardEntry, toleranceSeconds } from '../../oracle.ts';
import type { Delivery } from '../../receiver.ts';
import type { Discrepancy } from '../../verify.ts';

export const TOLERANCE_SECONDS = toleranceSeconds(loadDocument());

export const header = (delivery: Delivery, name: string) => {
  const value = delivery.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** The `webhook-timestamp` as a number, or undefined when it is not Unix seconds. */
export function timestampOf(delivery: Delivery): number | undefined {
  const text = header(delivery, 'webhook-timestamp');
  return text !== undefined && /^\d{1,12}$/.test(text) ? Number(text) : undefined;
}

/** The space-separated entries of `webhook-signature` (empty when absent). */
export function signatureEntries(delivery: Delivery): string[] {
  return (header(delivery, 'webhook-signature') ?? '').split(' ').filter((entry) => entry !== '');
}

/** Whether `entry` is the `v1,` signature of `signed` (by default `{webhook-id}.{webhook-timestamp}.{raw body}`) with `secret`. */
export function entrySignedWith(delivery: Delivery, entry: string, secret: string, signed?: Buffer): boolean {
  const id = header(delivery, 'webhook-id') ?? '';
  const time = header(delivery, 'webhook-timestamp') ?? '';
  return sameSignature(entry, signed ? entryOver(signed, secret) : standardEntry(id, time, delivery.raw, secret));
}

/** The body as JSON.stringify writes it: what a sender that signs before re-serialising signed. */
const reserialised = (delivery: Delivery): Buffer | undefined => {
  try {
    const compact = Buffer.from(JSON.stringify(JSON.parse(delivery.raw.toString('utf8'))));
    return compact.equals(delivery.raw) ? undefined : compact;
  } catch {
    return undefined;
  }
};

/** The rules of `webhook-id` and `webhook-timestamp`, judged on every delivery a check receives. */
export type IdAndTimeRule = 'param.StandardIdHeader.1' | 'delivery-headers.6' | 'param.StandardTimestampHeader.1' | 'delivery-headers.7';

/** The rules of a delivery's signatures: a check that judges them lists them all. */
export type SignatureRule =
  | IdAndTimeRule
  | 'delivery-headers.1'
  | 'delivery-headers.8'
  | 'param.SignatureHeader.1'
  | 'param.SignatureHeader.2'
  | 'param.StandardIdHeader.2'
  | 'param.StandardTimestampHeader.2'
  | 'param.StandardSignatureHeader.1'
  | 'param.StandardSignatureHeader.3'
  | 'schema.Webhook.2'
  | 'schema.WebhookSecret.1'
  | 'verifying-signatures.1'
  | 'verifying-signatures.5'
  | 'verifying-signatures.12'
  | 'verifying-signatures.15';

/** X-Service-Signature of one delivery: `sha256=` lowercase hex HMAC of the raw body with the secret, absent without one. */
export function signatureViolations(
  check: Check<SignatureRule>,
  delivery: Delivery,
  signature: string | null,
  secret: string | undefined,
): Discrepancy[] {
  if (secret === undefined) {
    return signature === null
      ? []
      : check.found({
          rule: ['param.SignatureHeader.2', 'delivery-headers.1', 'verifying-signatures.15'],
          observed: `a webhook without a secret got ${SIGNATURE_HEADER}`,
          details: [signature],
        });
  }
  const offered = signature ?? undefined;
  if (sameSignature(offered, serviceSignature(delivery.raw, secret))) return [];
  const other = reserialised(delivery);
  // Signed with the webhook's secret, every delivery; unsigned, although the webhook says it has one.
  const rules: SignatureRule[] = [
    'delivery-headers.1',
    'param.SignatureHeader.1',
    'verifying-signatures.12',
    signature === null ? 'schema.Webhook.2' : 'schema.WebhookSecret.1',
  ];
  if (other && sameSignature(offered, serviceSignature(other, secret))) rules.push('verifying-signatures.1');
  const message =
    signature === null
      ? `${SIGNATURE_HEADER} is missing on a signed webhook`
      : `${SIGNATURE_HEADER} does not verify against the raw body and the webhook's secret (sha256= and the lowercase hex HMAC-SHA256)`;
  const details = signature === null ? [] : [`${SIGNATURE_HEADER}: ${signature}`];
  return check.found({ rule: rules, observed: message, details, aspect: 'signature' });
}

/** What a `webhook-signature` entry that does not verify was signed over instead, as the rules it then breaks. */
function misSigned(delivery: Delivery, entries: string[], secret: string): SignatureRule[] {
  const id = header(delivery, 'webhook-id') ?? '';
  const time = header(delivery, 'webhook-timestamp') ?? '';
  const over = (prefix: string, body = delivery.raw) => Buffer.concat([Buffer.from(prefix), body]);
  const other = reserialised(delivery);
  const signs = (content: Buffer) => entries.some((entry) => entrySignedWith(delivery, entry, secret, content));
  return [
    ...(signs(over(`${time}.`)) || signs(delivery.raw) ? (['param.StandardIdHeader.2'] as const) : []),
    ...(signs(over(`${id}.`)) || signs(delivery.raw) ? (['param.StandardTimestampHeader.2'] as const) : []),
    ...(other && signs(over(`${id}.${time}.`, other)) ? (['verifying-signatures.1'] as const) : []),
  ];
}

/** `webhook-id` and `webhook-timestamp` of one delivery, whatever its webhook's secret. */
export function idAndTimeViolations(check: Check<IdAndTimeRule>, delivery: Delivery): Discrepancy[] {
  const violations: Discrepancy[] = [];
  const id = header(delivery, 'webhook-id');
  const deliveryId = header(delivery, 'x-service-delivery');
  if (id === undefined || id !== deliveryId) {
    const message = `webhook-id is ${JSON.stringify(id ?? null)}, X-Service-Delivery ${JSON.stringify(deliveryId ?? null)}: they must be the same value`;
    violations.push(
      ...check.found({ rule: 'param.StandardIdHeader.1', observed: message }),
      ...check.found({ rule: 'delivery-headers.6', observed: message }),
    );
  }
  const timestamp = timestampOf(delivery);
  const received = Math.floor(delivery.receivedAt / 1000);
  const timeRules = ['param.StandardTimestampHeader.1', 'delivery-headers.7'] as const;
  if (timestamp === undefined) {
    const message = `webhook-timestamp is ${JSON.stringify(header(delivery, 'webhook-timestamp') ?? null)}, not Unix seconds`;
    violations.push(...check.found({ rule: timeRules, observed: message }));
  } else if (Math.abs(received - timestamp) > TOLERANCE_SECONDS) {
    // A receiver following the document refuses it: the attempt's time must be the sending time.
    const message = `webhook-timestamp ${timestamp} is ${received - timestamp} s from the kit's clock when it arrived: a receiver refuses anything more than ${TOLERANCE_SECONDS} s away`;
    const details = [`received at ${new Date(delivery.receivedAt).toISOString()}, stamped ${new Date(timestamp * 1000).toISOString()}`];
    violations.push(...check.found({ rule: timeRules, observed: message, details }));
  }
  return violations;
}

/** Violations of the Standard Webhooks headers of one delivery; `secret` undefined: the webhook has none. */
export function standardHeaderViolations(check: Check<SignatureRule>, delivery: Delivery, secret: string | undefined): Discrepancy[] {
  const violations = idAndTimeViolations(check, delivery);
  const entries = signatureEntries(delivery);
  if (secret === undefined) {
    if (header(delivery, 'webhook-signature') !== undefined)
      violations.push(
        ...check.found({
          rule: ['param.StandardSignatureHeader.3', 'delivery-headers.8', 'verifying-signatures.15'],
          observed: 'a webhook without a secret got webhook-signature',
          details: [String(header(delivery, 'webhook-signature'))],
        }),
      );
  } else if (entries.length === 0) {
    violations.push(...check.found({ rule: 'delivery-headers.8', observed: 'webhook-signature is missing on a signed webhook' }));
  } else if (!entries.some((entry) => entrySignedWith(delivery, entry, secret))) {
    const rules: SignatureRule[] = [
      'param.StandardSignatureHeader.1',
      'verifying-signatures.5',
      'delivery-headers.8',
      ...misSigned(delivery, entries, secret),
    ];
    const message =
      "no webhook-signature entry is the v1, base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{raw body} with the webhook's secret";
    violations.push(...check.found({ rule: rules, observed: message, details: [`webhook-signature: ${entries.join(' ')}`] }));
  }
  return violations;
}
