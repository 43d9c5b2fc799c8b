// verifyWebhook, as a receiver calls it: the document's worked example of the timestamped
// signature, every check it names when it refuses, several secrets while rotating, and the older
// `sha256=` signature only when asked for.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders } from '../../../common/delivery-headers.ts';
import * as toolkit from '../src/index.ts';
import { standardWebhooksKey, type VerificationFailure, verifyWebhook, WebhookVerificationError } from '../src/webhooks.ts';

const SECRET = 'whsec_2f6c1e8a9b7d4c3e5f1a0b9c';
const OTHER = 'whsec_another_secret_value_01';
// The worked example of the document's *Verifying signatures* section.
const RAW =
  '{"event":"finding.created","timestamp":"2026-11-02T09:30:00Z","data":{"finding_id":"fnd_01jbz3k7q2w9x8v6t5r4p3n2m1","severity":"high","title":"SSH root login enabled","device_id":"dev_01jbz2m4n6p8q0r2s4t6v8w0x2","policy_id":"pol_01jbz1a2b3c4d5e6f7g8h9j0k1"}}';
const EXAMPLE = {
  'webhook-id': '9b2f1c7e-3d4a-4f5b-8c6d-7e8f9a0b1c2d',
  'webhook-timestamp': '1793611800',
  'webhook-signature': 'v1,TA7OobTuM49RToWuU3r9cHX2XgvvV6ScDTAi/954EaA=',
};
const AT_EXAMPLE = () => 1793611800_000 + 42_000;

const headersFor = (raw: string, secret: string, extra: Partial<Parameters<typeof deliveryHeaders>[0]> = {}) =>
  deliveryHeaders({
    body: raw,
    eventType: 'finding.created',
    deliveryId: crypto.randomUUID(),
    webhookId: 'whk_01jbz4c8d2e6f0g4h8j2k6m0n4',
    secret,
    ...extra,
  });

function refusal(call: () => unknown): VerificationFailure {
  try {
    call();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  throw new Error('verified');
}

describe('verifyWebhook', () => {
  it('verifies the document’s worked example, as the standardwebhooks library does with the base64 of the secret', () => {
    expect(verifyWebhook(RAW, EXAMPLE, SECRET, { now: AT_EXAMPLE })).toMatchObject({
      event: 'finding.created',
      data: { severity: 'high' },
    });
    expect(standardWebhooksKey(SECRET)).toBe('d2hzZWNfMmY2YzFlOGE5YjdkNGMzZTVmMWEwYjlj');
    const library = new Webhook(standardWebhooksKey(SECRET));
    const now = Date.now();
    const fresh = headersFor(RAW, SECRET);
    expect(library.verify(RAW, fresh)).toMatchObject({ event: 'finding.created' });
    expect(Math.abs(Number(fresh['webhook-timestamp']) * 1000 - now)).toBeLessThan(2000);
    expect(toolkit.verifyWebhook).toBe(verifyWebhook);
  });

  it('takes Node headers, Fetch Headers, bytes or a string, and any of several secrets', () => {
    const headers = headersFor(RAW, SECRET);
    expect(verifyWebhook(Buffer.from(RAW), new Headers(headers), [OTHER, SECRET]).event).toBe('finding.created');
    expect(
      verifyWebhook(
        new TextEncoder().encode(RAW),
        Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v])),
        SECRET,
      ).event,
    ).toBe('finding.created');
    // A rotation in progress: two entries, either secret verifies.
    const rotating = headersFor(RAW, SECRET, { previousSecret: OTHER });
    expect(rotating['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyWebhook(RAW, rotating, OTHER).event).toBe('finding.created');
  });

  it('names the check that failed', () => {
    const good = headersFor(RAW, SECRET);
    const { 'webhook-signature': _signature, 'x-service-signature': _legacy, ...unsigned } = good;
    expect(refusal(() => verifyWebhook(RAW, unsigned, SECRET))).toBe('missing-signature');
    expect(refusal(() => verifyWebhook(RAW, { ...good, 'webhook-id': '' }, SECRET))).toBe('malformed-headers');
    expect(refusal(() => verifyWebhook(RAW, { ...good, 'webhook-timestamp': '2026-11-02T09:30:00Z' }, SECRET))).toBe('malformed-headers');
    expect(refusal(() => verifyWebhook(RAW, good, OTHER))).toBe('signature-mismatch');
    expect(refusal(() => verifyWebhook(RAW.replace('high', 'low'), good, SECRET))).toBe('signature-mismatch');
    expect(refusal(() => verifyWebhook(RAW, { ...good, 'webhook-id': crypto.randomUUID() }, SECRET))).toBe('signature-mismatch');
    const invalid = RAW.replace('"high"', '42');
    expect(refusal(() => verifyWebhook(invalid, headersFor(invalid, SECRET), SECRET))).toBe('invalid-event');
  });

  it('refuses a timestamp past the tolerance either way: 5 minutes by default, configurable', () => {
    const now = Math.floor(Date.now() / 1000);
    const at = (seconds: number) => headersFor(RAW, SECRET, { timestamp: seconds });
    expect(verifyWebhook(RAW, at(now - 290), SECRET).event).toBe('finding.created');
    expect(refusal(() => verifyWebhook(RAW, at(now - 320), SECRET))).toBe('timestamp-out-of-tolerance');
    expect(refusal(() => verifyWebhook(RAW, at(now + 320), SECRET))).toBe('timestamp-out-of-tolerance');
    expect(verifyWebhook(RAW, at(now - 320), SECRET, { toleranceSeconds: 600 }).event).toBe('finding.created');
    expect(refusal(() => verifyWebhook(RAW, at(now - 30), SECRET, { toleranceSeconds: 10 }))).toBe('timestamp-out-of-tolerance');
  });

  it('accepts X-Service-Signature alone only when asked to (it carries no time, so it could be replayed)', () => {
    const { 'webhook-signature': _s, 'webhook-timestamp': _t, 'webhook-id': _i, ...legacy } = headersFor(RAW, SECRET);
    expect(refusal(() => verifyWebhook(RAW, legacy, SECRET))).toBe('missing-signature');
    expect(verifyWebhook(RAW, legacy, [OTHER, SECRET], { allowUntimestamped: true }).event).toBe('finding.created');
    expect(refusal(() => verifyWebhook(RAW, legacy, OTHER, { allowUntimestamped: true }))).toBe('signature-mismatch');
  });

  it('throws a TypeError for a parsed body or a missing secret, which a refusal would hide', () => {
    const good = headersFor(RAW, SECRET);
    expect(() => verifyWebhook(JSON.parse(RAW), good, SECRET)).toThrow(/verifyWebhook needs the raw body bytes/);
    expect(() => verifyWebhook(RAW, good, '')).toThrow(/verifyWebhook needs the webhook's secret/);
    expect(() => verifyWebhook(RAW, good, [])).toThrow(TypeError);
  });
});
