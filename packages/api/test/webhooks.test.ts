// Receiving events with the package, as an integrator would: verify the signature over the raw
// bytes, then parse into the typed event. Bodies are the document's own examples.
import { describe, expect, it } from 'vitest';
import { listMediaTypes, loadDocument } from '../src/document.ts';
import * as toolkit from '../src/index.ts';
import {
  EVENT_TYPES,
  type EventOf,
  InvalidEventError,
  parseEvent,
  SIGNATURE_HEADER,
  sign,
  validateEvent,
  verifySignature,
} from '../src/webhooks.ts';

const SECRET = 'whsec_2f6c1e8a9b7d4c3e5f1a0b9c';
const deliveries = listMediaTypes(loadDocument())
  .filter((media) => media.kind === 'request' && media.schemaPointer.startsWith('#/webhooks/'))
  .flatMap((media) => media.examples.map((example) => ({ where: `${media.where} ${example.name}`, body: example.value })));

describe('secmon-api/webhooks', () => {
  it('covers the six event types, and the root entry exports the same functions', () => {
    expect([...EVENT_TYPES].sort()).toEqual([
      'compliance.changed',
      'device.connected',
      'device.disconnected',
      'finding.created',
      'finding.resolved',
      'scan.completed',
    ]);
    expect(new Set(deliveries.map((delivery) => (delivery.body as { event: string }).event))).toEqual(new Set(EVENT_TYPES));
    expect(toolkit.parseEvent).toBe(parseEvent);
    expect(toolkit.verifySignature).toBe(verifySignature);
    expect(SIGNATURE_HEADER).toBe('X-Service-Signature');
  });

  it('verifies the worked example of the document', () => {
    const raw =
      '{"event":"finding.created","timestamp":"2026-11-02T09:30:00Z","data":{"finding_id":"fnd_01jbz3k7q2w9x8v6t5r4p3n2m1","severity":"high","title":"SSH root login enabled","device_id":"dev_01jbz2m4n6p8q0r2s4t6v8w0x2","policy_id":"pol_01jbz1a2b3c4d5e6f7g8h9j0k1"}}';
    const header = 'sha256=b7b745782abc37fa2f4b7037178649216f355c165f58a84c4d06e60b7f8d1f0f';
    expect(verifySignature(raw, header, SECRET)).toBe(true);
    expect(verifySignature(raw.replace('high', 'low'), header, SECRET)).toBe(false);
    expect(verifySignature(raw, header, 'whsec_another_secret_value')).toBe(false);
  });

  for (const { where, body } of deliveries) {
    it(`verifies and parses ${where}`, () => {
      const raw = Buffer.from(JSON.stringify(body));
      expect(verifySignature(raw, sign(raw, SECRET), SECRET)).toBe(true);
      const event = parseEvent(raw);
      expect(event).toEqual(body);
      // The union narrows on `event`: each branch reads its own payload fields.
      const subject =
        event.event === 'finding.created' || event.event === 'finding.resolved'
          ? event.data.finding_id
          : event.event === 'compliance.changed'
            ? event.data.policy_id
            : event.event === 'scan.completed'
              ? event.data.scan_id
              : event.data.device_id;
      expect(subject).toMatch(/^(fnd|pol|scn|dev)_/);
    });
  }

  it('rejects bodies the document does not allow, naming the problem', () => {
    const [first] = deliveries;
    const body = first!.body as { event: string; data: Record<string, unknown> };
    expect(() => parseEvent('{not json')).toThrow(InvalidEventError);
    expect(() => parseEvent(JSON.stringify({ ...body, event: 'device.rebooted' }))).toThrow(/event/);
    const { timestamp: _dropped, ...noTimestamp } = body as Record<string, unknown>;
    expect(() => parseEvent(JSON.stringify(noTimestamp))).toThrow(/timestamp/);
    expect(() => parseEvent(JSON.stringify({ ...body, timestamp: 'yesterday' }))).toThrow(/timestamp/);
    expect(() => parseEvent(JSON.stringify({ ...body, data: { ...body.data, finding_id: 42 } }))).toThrow(/finding_id/);
  });

  it('accepts what the Versioning section lets v1 add: unknown fields and enum values, and keeps them', () => {
    const created = deliveries.find((delivery) => (delivery.body as { event: string }).event === 'finding.created')!
      .body as EventOf<'finding.created'>;
    const newer = { ...created, delivered_by: 'eu-1', data: { ...created.data, severity: 'urgent', asset_tags: ['laptop'] } };
    const event = parseEvent(JSON.stringify(newer));
    expect(event).toEqual(newer);
    // The type admits a value newer than this version beside the ones it lists.
    const severity: EventOf<'finding.created'>['data']['severity'] = 'urgent';
    expect(event.event === 'finding.created' && event.data.severity).toBe(severity);
    // An implementation of this exact version sends none of that: the strict check says so.
    expect(validateEvent(newer)).toMatchObject({ valid: false, message: expect.stringMatching(/additional properties|allowed values/) });
    expect(validateEvent(created)).toEqual({ valid: true });
  });
});

describe('verifySignature refuses the receiver mistakes a false would hide', () => {
  const raw = '{"event":"finding.created"}';
  const header = sign(raw, SECRET);

  it.each([
    ['a parsed object', JSON.parse(raw)],
    ['an array', [1]],
    ['undefined (no body parser)', undefined],
  ])('a body that is %s: TypeError asking for the raw bytes', (_label, body) => {
    const call = () => verifySignature(body as never, header, SECRET);
    expect(call).toThrow(TypeError);
    expect(call).toThrow(/needs the raw body bytes as received .*express\.raw/);
  });

  it.each([
    ['undefined', undefined, /got undefined: check that it is configured/],
    ['null', null, /got null/],
    ['empty', '', /got an empty string/],
  ])('a secret that is %s: TypeError naming it', (_label, secret, message) => {
    const call = () => verifySignature(raw, header, secret as never);
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
  });

  it('Buffers, Uint8Arrays and strings are all raw bodies', () => {
    expect(verifySignature(Buffer.from(raw), header, SECRET)).toBe(true);
    expect(verifySignature(new TextEncoder().encode(raw), header, SECRET)).toBe(true);
    expect(verifySignature(raw, undefined, SECRET)).toBe(false);
  });
});
