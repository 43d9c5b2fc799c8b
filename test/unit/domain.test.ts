// Unit tests of the server's plain domain functions: identifiers, cursors, ETags, the finding
// life cycle and the events a finding change produces.

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/schema.d.ts';
import { fromBase64url } from '../../packages/api/src/base64.ts';
import { digestsOf } from '../../packages/core/src/digests.ts';
import { ifMatchSatisfied, ifNoneMatchHits } from '../../packages/core/src/domain/etag.ts';
import { eventsForFindingChange } from '../../packages/core/src/domain/events.ts';
import { canTransition, type FindingStatus, newFinding, updatedFinding } from '../../packages/core/src/domain/findings.ts';
import { encodeBase32, uuidv7Bytes } from '../../packages/core/src/domain/ids.ts';
import { portablePlatform } from '../../packages/core/src/portable-platform.ts';
import { nodePlatform } from '../../server/platform.ts';
import { DEVICE_ID, schemaErrors } from '../server/helpers.ts';

type Finding = components['schemas']['Finding'];

const { decodeCursor, encodeCursor, etagOf, etagOfBytes, newId } = digestsOf(nodePlatform);

describe('platforms', () => {
  it('node:crypto and the portable platform tag, fingerprint and page alike', () => {
    const browser = digestsOf(portablePlatform);
    const representation = { id: 'fnd_x', title: 'Ünïcödé ✓', n: [1, 2] };
    expect(etagOf(representation)).toBe(browser.etagOf(representation));
    expect(digestsOf(nodePlatform).requestFingerprint('POST', '/v1/findings', representation)).toBe(
      browser.requestFingerprint('POST', '/v1/findings', representation),
    );
    const position = { created_at: '2026-11-02T09:30:00.123Z', id: newId('pol') };
    expect(browser.decodeCursor('policies', {}, encodeCursor('policies', {}, position))).toEqual(position);
  });
});

describe('ids', () => {
  it('are TypeIDs that match the document patterns', () => {
    expect(schemaErrors('PolicyId', newId('pol'))).toBe('');
    expect(schemaErrors('FindingId', newId('fnd'))).toBe('');
    expect(schemaErrors('WebhookId', newId('whk'))).toBe('');
  });

  it("take the server's random bytes from a pool without ever handing out the same bytes twice, across refills", () => {
    const taken = Array.from({ length: 1_000 }, () => Buffer.from(nodePlatform.randomBytes(10)).toString('hex'));
    expect(new Set(taken).size).toBe(taken.length);
    const first = nodePlatform.randomBytes(10);
    const copy = Buffer.from(first).toString('hex');
    nodePlatform.randomBytes(10);
    expect(Buffer.from(first).toString('hex')).toBe(copy);
    expect(nodePlatform.randomBytes(10_000)).toHaveLength(10_000);
  });

  it('encode a UUIDv7 with version and variant bits and the millisecond time first', () => {
    const bytes = uuidv7Bytes(0x0123456789ab, new Uint8Array(10).fill(0xff));
    expect(Buffer.from(bytes).toString('hex')).toBe('0123456789ab7fffbfffffffffffffff');
  });

  it('encodes the TypeID spec vector', () => {
    // From the TypeID specification: 0188bac7-4afa-78aa-bc3b-bd1eef28d881.
    expect(encodeBase32(Buffer.from('0188bac74afa78aabc3bbd1eef28d881', 'hex'))).toBe('01h2xcejqtf2nbrexx3vqjhp41');
  });

  it('sort by creation time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 47 }), fc.integer({ min: 1, max: 2 ** 40 }), (earlier, gap) => {
        expect(newId('fnd', earlier) < newId('fnd', earlier + gap)).toBe(true);
      }),
    );
  });
});

describe('cursors', () => {
  const position = { created_at: '2026-11-02T09:30:00.123Z', id: newId('pol') };

  it('round-trip and match the Cursor schema', () => {
    const cursor = encodeCursor('policies', { severity: 'high' }, position);
    expect(schemaErrors('Cursor', cursor)).toBe('');
    expect(decodeCursor('policies', { severity: 'high' }, cursor)).toEqual(position);
  });

  it('are bound to the list and its filters', () => {
    const cursor = encodeCursor('policies', { severity: 'high', enabled: undefined }, position);
    expect(decodeCursor('policies', { severity: 'high' }, cursor)).toEqual(position);
    expect(decodeCursor('policies', { severity: 'low' }, cursor)).toBeUndefined();
    expect(decodeCursor('policies', {}, cursor)).toBeUndefined();
    expect(decodeCursor('findings', { severity: 'high' }, cursor)).toBeUndefined();
  });

  it('never decode garbage into a position', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (text) => {
        expect(decodeCursor('findings', {}, text)).toBeUndefined();
        expect(decodeCursor('findings', {}, Buffer.from(text).toString('base64url'))).toBeUndefined();
      }),
    );
  });
});

describe('etags', () => {
  it('are strong, match the header pattern and change with the representation', () => {
    const tag = etagOf({ a: 1 });
    expect(tag).toMatch(/^"[!#-~]{1,128}"$/);
    expect(etagOf({ a: 1 })).toBe(tag);
    expect(etagOf({ a: 2 })).not.toBe(tag);
  });

  it("are the base64url SHA-256 of the bytes that Node's own crypto gives (the portable hash changes no tag)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        expect(etagOfBytes(text)).toBe(`"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`);
        expect(fromBase64url(Buffer.from(text).toString('base64url'))).toEqual(new Uint8Array(Buffer.from(text)));
      }),
    );
  });

  it('If-Match: absent passes, * passes, lists are searched, weak tags never match', () => {
    const tag = etagOf({ a: 1 });
    expect(ifMatchSatisfied(undefined, tag)).toBe(true);
    expect(ifMatchSatisfied('*', tag)).toBe(true);
    expect(ifMatchSatisfied(`"x", ${tag}`, tag)).toBe(true);
    expect(ifMatchSatisfied(`W/${tag}`, tag)).toBe(false);
    expect(ifMatchSatisfied('"other"', tag)).toBe(false);
  });

  it('If-None-Match: weak comparison, * and lists', () => {
    const tag = etagOf({ a: 1 });
    expect(ifNoneMatchHits(undefined, tag)).toBe(false);
    expect(ifNoneMatchHits(tag, tag)).toBe(true);
    expect(ifNoneMatchHits(`W/${tag}`, tag)).toBe(true);
    expect(ifNoneMatchHits(`"a", "b"`, tag)).toBe(false);
    expect(ifNoneMatchHits('*', tag)).toBe(true);
  });
});

const STATUSES: FindingStatus[] = ['open', 'in_progress', 'resolved', 'suppressed'];
const ALLOWED = new Set([
  'open>in_progress',
  'open>resolved',
  'open>suppressed',
  'in_progress>open',
  'in_progress>resolved',
  'in_progress>suppressed',
  'resolved>open',
  'suppressed>open',
]);

describe('finding life cycle', () => {
  it('allows exactly the documented transitions, and keeping a status', () => {
    for (const from of STATUSES) {
      for (const to of STATUSES) {
        expect(canTransition(from, to), `${from} → ${to}`).toBe(from === to || ALLOWED.has(`${from}>${to}`));
      }
    }
  });

  const created = newFinding(
    'fnd_01jbz3k7q2w9x8v6t5r4p3n2m1',
    { title: 'SSH root login', severity: 'high', device_id: DEVICE_ID },
    '2026-11-02T09:30:00.000Z',
  ) as Finding;

  it('creates open findings with defaults that match the schema', () => {
    expect(created).toMatchObject({ status: 'open', resolution: null, resolved_at: null, policy_id: null, description: '' });
    expect(created.first_seen_at).toBe('2026-11-02T09:30:00.000Z');
    expect(schemaErrors('Finding', created)).toBe('');
  });

  it('refuses last_seen_at before first_seen_at', () => {
    const result = newFinding(
      'fnd_01jbz3k7q2w9x8v6t5r4p3n2m1',
      { title: 't', severity: 'low', device_id: DEVICE_ID, first_seen_at: '2026-01-02T00:00:00Z', last_seen_at: '2026-01-01T00:00:00Z' },
      '2026-11-02T09:30:00.000Z',
    );
    expect(result).toEqual({ kind: 'validation', pointer: '/body/last_seen_at', message: 'must not be earlier than first_seen_at' });
  });

  it('stamps resolved_at on entering resolved, keeps it while resolved, clears it on reopen', () => {
    const resolved = updatedFinding(
      created,
      { title: 't', severity: 'high', status: 'resolved', resolution: { reason: 'fixed' } },
      '2026-11-03T00:00:00.000Z',
    ) as Finding;
    expect(resolved).toMatchObject({
      status: 'resolved',
      resolved_at: '2026-11-03T00:00:00.000Z',
      resolution: { reason: 'fixed', comment: '' },
    });
    const edited = updatedFinding(
      resolved,
      { title: 'renamed', severity: 'high', status: 'resolved', resolution: { reason: 'duplicate' } },
      '2026-11-04T00:00:00.000Z',
    ) as Finding;
    expect(edited.resolved_at).toBe('2026-11-03T00:00:00.000Z');
    const reopened = updatedFinding(edited, { title: 'renamed', severity: 'high', status: 'open' }, '2026-11-05T00:00:00.000Z') as Finding;
    expect(reopened).toMatchObject({ status: 'open', resolved_at: null, resolution: null, updated_at: '2026-11-05T00:00:00.000Z' });
    expect(schemaErrors('Finding', reopened)).toBe('');
  });

  it('refuses an illegal transition without changing anything', () => {
    const suppressed = updatedFinding(
      created,
      { title: 't', severity: 'high', status: 'suppressed', resolution: { reason: 'wont_fix' } },
      '2026-11-03T00:00:00.000Z',
    ) as Finding;
    const result = updatedFinding(
      suppressed,
      { title: 't', severity: 'high', status: 'resolved', resolution: { reason: 'fixed' } },
      '2026-11-04T00:00:00.000Z',
    );
    expect(result).toMatchObject({ kind: 'invalid-transition' });
  });

  it('PUT semantics: omitted description and policy_id take their defaults', () => {
    const linked = { ...created, description: 'd', policy_id: 'pol_01jbz1a2b3c4d5e6f7g8h9j0k1' };
    const next = updatedFinding(linked, { title: 't', severity: 'low', status: 'in_progress' }, '2026-11-03T00:00:00.000Z') as Finding;
    expect(next).toMatchObject({ description: '', policy_id: null, device_id: DEVICE_ID, first_seen_at: created.first_seen_at });
  });
});

describe('events of a finding change', () => {
  const at = '2026-11-02T09:30:00.000Z';
  const finding = {
    ...(newFinding(
      'fnd_01jbz3k7q2w9x8v6t5r4p3n2m1',
      { title: 'SSH root login', severity: 'high', device_id: DEVICE_ID, policy_id: 'pol_01jbz1a2b3c4d5e6f7g8h9j0k1' },
      at,
    ) as Finding),
  };
  const resolved: Finding = { ...finding, status: 'resolved', resolution: { reason: 'fixed', comment: '' }, resolved_at: at };

  it('create: finding.created, plus compliance.changed when the policy flips', () => {
    const events = eventsForFindingChange({
      before: null,
      after: finding,
      compliance: [{ policy_id: finding.policy_id!, before: 'compliant', after: 'non_compliant' }],
      at,
    });
    expect(events.map((event) => event.event)).toEqual(['finding.created', 'compliance.changed']);
    expect(events[1]!.data).toMatchObject({ previous_status: 'compliant', current_status: 'non_compliant', finding_id: finding.id });
    for (const event of events) {
      const name = event.event === 'finding.created' ? 'FindingCreatedEvent' : 'ComplianceChangedEvent';
      expect(schemaErrors(name, event)).toBe('');
    }
  });

  it('resolve: finding.resolved with the reason, once', () => {
    const events = eventsForFindingChange({
      before: finding,
      after: resolved,
      compliance: [{ policy_id: finding.policy_id!, before: 'non_compliant', after: 'compliant' }],
      at,
    });
    expect(events.map((event) => event.event)).toEqual(['finding.resolved', 'compliance.changed']);
    expect(schemaErrors('FindingResolvedEvent', events[0])).toBe('');
    expect(events[0]!.data).toMatchObject({ resolution_reason: 'fixed', resolved_at: at });
    expect(eventsForFindingChange({ before: resolved, after: { ...resolved, title: 'x' }, compliance: [], at })).toEqual([]);
  });

  it('suppress emits no finding.resolved; an unchanged compliance emits nothing', () => {
    const suppressed: Finding = { ...finding, status: 'suppressed', resolution: { reason: 'wont_fix', comment: '' } };
    expect(
      eventsForFindingChange({
        before: finding,
        after: suppressed,
        compliance: [{ policy_id: finding.policy_id!, before: 'compliant', after: 'compliant' }],
        at,
      }),
    ).toEqual([]);
  });

  it('delete: compliance.changed with finding_id null', () => {
    const events = eventsForFindingChange({
      before: finding,
      after: null,
      compliance: [{ policy_id: finding.policy_id!, before: 'non_compliant', after: 'compliant' }],
      at,
    });
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ finding_id: null, current_status: 'compliant' });
    expect(schemaErrors('ComplianceChangedEvent', events[0])).toBe('');
  });

  it('re-link: one event per policy that flips', () => {
    const events = eventsForFindingChange({
      before: finding,
      after: { ...finding, policy_id: 'pol_01jbz1a2b3c4d5e6f7g8h9j0k2' },
      compliance: [
        { policy_id: finding.policy_id!, before: 'non_compliant', after: 'compliant' },
        { policy_id: 'pol_01jbz1a2b3c4d5e6f7g8h9j0k2', before: 'compliant', after: 'non_compliant' },
      ],
      at,
    });
    expect(events.map((event) => [event.event, (event.data as { policy_id: string }).policy_id])).toEqual([
      ['compliance.changed', finding.policy_id],
      ['compliance.changed', 'pol_01jbz1a2b3c4d5e6f7g8h9j0k2'],
    ]);
  });
});
