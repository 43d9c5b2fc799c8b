// One call for a webhook receiver: checks a delivery's signature over the raw body (the timestamped
// Standard Webhooks one, or on request the older `sha256=` one), its age, then parses and validates
// the body into the typed event. Every refusal is a WebhookVerificationError whose `reason` says
// which check failed, so a receiver can answer and log it without parsing messages.
import { InvalidEventError, parseEvent, type WebhookEvent } from './events.ts';
import { assertVerifiable, SIGNATURE_HEADER, verifySignature } from './signing.ts';
import {
  DEFAULT_TOLERANCE_SECONDS,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  signStandard,
} from './standard-webhooks.ts';

export type VerificationFailure =
  /** No signature header at all (or only `X-Service-Signature` without `allowUntimestamped`). */
  | 'missing-signature'
  /** `webhook-signature` without `webhook-id` or with a `webhook-timestamp` that is not Unix seconds. */
  | 'malformed-headers'
  /** `webhook-timestamp` further from now than the tolerance: a replay, or a clock far off. */
  | 'timestamp-out-of-tolerance'
  /** No signature matches any of the secrets: forged, changed in transit, or another secret. */
  | 'signature-mismatch'
  /** Authentic, but the body is not JSON or not an event the document allows. */
  | 'invalid-event';

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  /** Which check failed. */
  readonly reason: VerificationFailure;
  constructor(reason: VerificationFailure, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

/** Request headers as Node (`req.headers`), Express or the Fetch API (`Headers`) give them. */
export type DeliveryHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, in seconds, either way. Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /**
   * Accept a delivery that carries only `X-Service-Signature` (a service predating the timestamped
   * signature). Off by default: that signature covers the body alone, so anyone who captured a
   * delivery could strip its timestamped headers and replay it forever.
   */
  allowUntimestamped?: boolean;
  /** The receiver's clock, epoch milliseconds (tests). */
  now?: () => number;
}

/**
 * Verifies a delivery with one or more secrets (several while a secret is being rotated) and
 * returns its typed, validated event. `rawBody` is the body exactly as received. Throws
 * WebhookVerificationError (see `reason`); throws TypeError for a parsed body or no secret.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: DeliveryHeaders,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): WebhookEvent {
  const keys = typeof secrets === 'string' ? [secrets] : [...secrets];
  const header = headerReader(headers);
  if (keys.length === 0) throw new TypeError('verifyWebhook needs at least one secret');
  for (const key of keys) assertVerifiable('verifyWebhook', rawBody, key);
  const signature = header(STANDARD_SIGNATURE_HEADER);
  if (signature !== undefined) verifyTimestamped(rawBody, header, signature, keys, options);
  else if (header(SIGNATURE_HEADER) !== undefined && options.allowUntimestamped) {
    if (!keys.some((secret) => verifySignature(rawBody, header(SIGNATURE_HEADER), secret))) {
      throw new WebhookVerificationError('signature-mismatch', `${SIGNATURE_HEADER} matches none of the ${keys.length} secret(s)`);
    }
  } else {
    const only =
      header(SIGNATURE_HEADER) !== undefined
        ? ` (only ${SIGNATURE_HEADER}, which carries no time; pass allowUntimestamped to accept it)`
        : '';
    throw new WebhookVerificationError('missing-signature', `the delivery has no ${STANDARD_SIGNATURE_HEADER} header${only}`);
  }
  try {
    return parseEvent(rawBody);
  } catch (error) {
    if (!(error instanceof InvalidEventError)) throw error;
    throw new WebhookVerificationError('invalid-event', error.message, { cause: error });
  }
}

function verifyTimestamped(
  rawBody: string | Uint8Array,
  header: (name: string) => string | undefined,
  signature: string,
  secrets: string[],
  { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = Date.now }: VerifyOptions,
): void {
  const id = header(STANDARD_ID_HEADER);
  const timestampText = header(STANDARD_TIMESTAMP_HEADER);
  if (!id) throw new WebhookVerificationError('malformed-headers', `${STANDARD_SIGNATURE_HEADER} without ${STANDARD_ID_HEADER}`);
  if (timestampText === undefined || !/^\d{1,12}$/.test(timestampText)) {
    throw new WebhookVerificationError(
      'malformed-headers',
      `${STANDARD_TIMESTAMP_HEADER} must be Unix seconds, got ${JSON.stringify(timestampText ?? null)}`,
    );
  }
  const timestamp = Number(timestampText);
  const skew = Math.floor(now() / 1000) - timestamp;
  if (Math.abs(skew) > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp-out-of-tolerance',
      `${STANDARD_TIMESTAMP_HEADER} is ${Math.abs(skew)} s ${skew > 0 ? 'old' : 'in the future'}; the tolerance is ${toleranceSeconds} s`,
    );
  }
  const offered = signature.split(' ').filter((entry) => entry.startsWith('v1,'));
  const expected = secrets.map((secret) => signStandard(id, timestamp, rawBody, secret));
  // Every pair is compared in full, so the time does not tell which entry or secret came close.
  let matched = false;
  for (const candidate of offered) for (const wanted of expected) matched = constantTimeEqual(candidate, wanted) || matched;
  if (!matched)
    throw new WebhookVerificationError(
      'signature-mismatch',
      `${STANDARD_SIGNATURE_HEADER} matches none of the ${secrets.length} secret(s)`,
    );
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function headerReader(headers: DeliveryHeaders): (name: string) => string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return (name) => headers.get(name) ?? undefined;
  const lower = new Map(
    Object.entries(headers as Record<string, string | string[] | undefined>).map(([key, value]) => [key.toLowerCase(), value]),
  );
  return (name) => {
    const value = lower.get(name.toLowerCase());
    return Array.isArray(value) ? value.join(' ') : value;
  };
}
