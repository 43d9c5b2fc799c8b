// The kit's signature oracle against the worked example the document itself prints (secret, id,
// timestamp, body and both header values), so the kit and the document agree without either
// borrowing the reference server's signing code.
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../packages/api/src/document.ts';
import {
  sameSignature,
  serviceSignature,
  signedDeliveryHeaders,
  standardEntry,
  toleranceSeconds,
} from '../../packages/contract/src/kit/oracle.ts';

const document = loadDocument();
const text = document.info.description ?? '';
const stated = (pattern: RegExp) => {
  const found = pattern.exec(text)?.[1];
  if (found === undefined) throw new Error(`the worked example no longer states ${pattern}`);
  return found;
};
const example = {
  secret: stated(/with the secret `(whsec_[^`]+)`/),
  id: stated(/`webhook-id:\s+([0-9a-f-]{36})`/),
  timestamp: stated(/`webhook-timestamp: (\d+)`/),
  body: stated(/```json\n\s*(\{.*\})\n/),
  standard: stated(/the header is `webhook-signature: (v1,[^`]+)`/),
  service: stated(/the header\s+is `X-Service-Signature: (sha256=[0-9a-f]{64})`/),
};

describe("the kit's signature oracle", () => {
  it("computes the document's worked example of webhook-signature", () => {
    expect(standardEntry(example.id, example.timestamp, example.body, example.secret)).toBe(example.standard);
  });

  it("computes the document's worked example of X-Service-Signature", () => {
    expect(serviceSignature(example.body, example.secret)).toBe(example.service);
  });

  it('compares signatures exactly (one character off, or another length, does not match)', () => {
    expect(sameSignature(example.service, example.service)).toBe(true);
    expect(
      sameSignature(
        example.service.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
        example.service,
      ),
    ).toBe(false);
    expect(sameSignature(example.service.slice(1), example.service)).toBe(false);
    expect(sameSignature(undefined, example.service)).toBe(false);
  });

  it("reads the webhook-timestamp tolerance from the header's description (5 minutes today)", () => {
    expect(toleranceSeconds(document)).toBe(300);
    const moved = structuredClone(document) as typeof document & { components: { parameters: Record<string, { description: string }> } };
    moved.components.parameters.StandardTimestampHeader!.description =
      'refuse a delivery whose timestamp is more than 2 minutes from your clock';
    expect(toleranceSeconds(moved)).toBe(120);
    moved.components.parameters.StandardTimestampHeader!.description = 'refuse old deliveries';
    expect(() => toleranceSeconds(moved)).toThrow(/no longer states/);
  });

  it('signs a delivery the way the example does, and not at all without a secret', () => {
    const delivery = {
      body: example.body,
      eventType: 'finding.created',
      deliveryId: example.id,
      webhookId: 'whk_1',
      timestamp: Number(example.timestamp),
      version: '1.0.0',
    };
    const signed = signedDeliveryHeaders({ ...delivery, secret: example.secret });
    expect([signed['x-service-signature'], signed['webhook-signature'], signed['webhook-id']]).toEqual([
      example.service,
      example.standard,
      example.id,
    ]);
    const unsigned = signedDeliveryHeaders({ ...delivery, secret: null });
    expect(Object.keys(unsigned).filter((name) => name.includes('signature'))).toEqual([]);
  });
});
