// The executable model on hand-made sequences: what it predicts for creates, replaces, replays,
// conditional requests, compliance and events, and the differences it reports when an answer
// departs from the document.
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../lib/document.ts';
import { type Answer, judgeCreate, judgeDelete, judgeReplace } from '../contract/kit/model/answers.ts';
import { emit } from '../contract/kit/model/causes.ts';
import { judgeDeliveries } from '../contract/kit/model/deliveries.ts';
import { resourceFacts } from '../contract/kit/model/facts.ts';
import { quotaTracker } from '../contract/kit/model/quota.ts';
import { judgeKeyedCreate } from '../contract/kit/model/replays.ts';
import { emptyState } from '../contract/kit/model/state.ts';
import { buildModel } from '../contract/kit/spec.ts';

const facts = resourceFacts(buildModel(loadDocument()));
const now = Date.now();
const stamp = new Date(now).toISOString();
let tags = 0;
function answer(status: number, json: unknown, headers: Record<string, string> = {}): Answer {
  const all: Record<string, string> = { etag: `"t${++tags}"`, ...headers };
  return { status, json, header: (name) => all[name] ?? null, sentAt: now, receivedAt: now };
}
const policy = (id: string, extra = {}) => ({
  id,
  name: 'p',
  description: '',
  severity: 'high',
  enabled: true,
  frameworks: [],
  rule: null,
  version: 1,
  compliance_status: 'compliant',
  created_at: stamp,
  updated_at: stamp,
  ...extra,
});
const finding = (id: string, extra = {}) => ({
  id,
  title: 'f',
  description: '',
  severity: 'low',
  status: 'open',
  resolution: null,
  device_id: 'dev_0aaaaaaaaaaaaaaaaaaaaaaaaa',
  policy_id: null,
  first_seen_at: stamp,
  last_seen_at: stamp,
  resolved_at: null,
  created_at: stamp,
  updated_at: stamp,
  ...extra,
});

describe('the executable model', () => {
  it('fills defaults on create and holds the answer to them', () => {
    const state = emptyState(facts);
    expect(judgeCreate(state, 'policies', { name: 'p', severity: 'high' }, answer(201, policy('pol_1')))).toEqual([]);
    const wrong = judgeCreate(state, 'policies', { name: 'p', severity: 'high' }, answer(201, policy('pol_2', { enabled: false })));
    expect(wrong.map((d) => d.rule)).toEqual(['createPolicy.3']);
  });

  it('derives compliance from open findings and predicts compliance.changed and finding.created for enabled subscribers only', () => {
    const state = emptyState(facts);
    judgeCreate(
      state,
      'webhooks',
      { url: 'http://r/a', events: ['finding.created', 'compliance.changed'] },
      answer(201, {
        id: 'whk_on',
        enabled: true,
        has_secret: false,
        disabled_reason: null,
        created_at: stamp,
        updated_at: stamp,
        url: 'http://r/a',
        events: ['finding.created', 'compliance.changed'],
        description: '',
        last_delivery: null,
      }),
    );
    judgeCreate(
      state,
      'webhooks',
      { url: 'http://r/b', events: ['finding.created'], enabled: false },
      answer(201, {
        id: 'whk_off',
        enabled: false,
        has_secret: false,
        disabled_reason: null,
        created_at: stamp,
        updated_at: stamp,
        url: 'http://r/b',
        events: ['finding.created'],
        description: '',
        last_delivery: null,
      }),
    );
    judgeCreate(state, 'policies', { name: 'p', severity: 'high' }, answer(201, policy('pol_1')));
    const body = { title: 'f', severity: 'low', device_id: 'dev_0aaaaaaaaaaaaaaaaaaaaaaaaa', policy_id: 'pol_1' };
    expect(judgeCreate(state, 'findings', body, answer(201, finding('fnd_1', { policy_id: 'pol_1' })))).toEqual([]);
    expect(state.known.get('pol_1')!.expected.compliance_status).toBe('non_compliant');
    expect(state.events.map((e) => [e.type, [...e.recipients]])).toEqual([
      ['finding.created', ['whk_on']],
      ['compliance.changed', ['whk_on']],
    ]);
    const delivery = (webhookId: string, type: string, data: Record<string, unknown>) => ({
      webhookId,
      deliveryId: 'd',
      type,
      data,
      raw: Buffer.from('{}'),
    });
    const created = { finding_id: 'fnd_1', severity: 'low', title: 'f', device_id: 'dev_0aaaaaaaaaaaaaaaaaaaaaaaaa', policy_id: 'pol_1' };
    const changed = { policy_id: 'pol_1', previous_status: 'compliant', current_status: 'non_compliant', finding_id: 'fnd_1' };
    expect(
      judgeDeliveries(state, [delivery('whk_on', 'finding.created', created), delivery('whk_on', 'compliance.changed', changed)]),
    ).toEqual([]);
    const toDisabled = judgeDeliveries(state, [
      delivery('whk_on', 'finding.created', created),
      delivery('whk_on', 'compliance.changed', changed),
      delivery('whk_off', 'finding.created', created),
    ]);
    expect(toDisabled.map((d) => d.rule)).toEqual(['webhooks.2']);
    expect(judgeDeliveries(state, []).map((d) => d.message)).toEqual([
      expect.stringContaining('never reached whk_on'),
      expect.stringContaining('never reached whk_on'),
    ]);
  });

  it('owes an event raised by a trigger command on its webhook once per raise, whatever data the implementation chose', () => {
    const state = emptyState(facts);
    const hook = (id: string) => ({ id, enabled: true, has_secret: false, disabled_reason: null, created_at: stamp, updated_at: stamp });
    const body = { url: 'http://r/a', events: ['scan.completed'], description: '', last_delivery: null };
    judgeCreate(state, 'webhooks', body, answer(201, { ...hook('whk_a'), ...body }));
    judgeCreate(state, 'webhooks', body, answer(201, { ...hook('whk_b'), ...body }));
    emit(state, 'scan.completed', {}, 'whk_a', true);
    emit(state, 'scan.completed', {}, 'whk_a', true);
    const scan = (webhookId: string, deliveryId: string) => ({
      webhookId,
      deliveryId,
      type: 'scan.completed',
      data: { scan_id: 'scn_0aaaaaaaaaaaaaaaaaaaaaaaaa', device_id: 'dev_0bbbbbbbbbbbbbbbbbbbbbbbbb' },
      raw: Buffer.from('{}'),
    });
    // Two raises, two deliveries on the named webhook; the other subscriber's copy is neither owed nor wrong.
    expect(judgeDeliveries(state, [scan('whk_a', 'd1'), scan('whk_b', 'd9'), scan('whk_a', 'd2')])).toEqual([]);
    // One delivery (sent twice) pays for one raise only, and a copy elsewhere pays for none.
    expect(judgeDeliveries(state, [scan('whk_a', 'd1'), scan('whk_a', 'd1'), scan('whk_b', 'd9')]).map((d) => [d.rule, d.message])).toEqual(
      [
        [
          'test-support-not-part-of-the-v1-contract.3',
          'scan.completed (with data of its own, raised by the trigger command) never reached whk_a, which was enabled and subscribed',
        ],
      ],
    );
  });

  it('refuses a transition the state table does not allow, and a weak If-Match', () => {
    const state = emptyState(facts);
    judgeCreate(
      state,
      'findings',
      { title: 'f', severity: 'low', device_id: 'dev_0aaaaaaaaaaaaaaaaaaaaaaaaa' },
      answer(201, finding('fnd_1')),
    );
    const resolve = { title: 'f', severity: 'low', status: 'resolved', resolution: { reason: 'fixed' } };
    const resolved = finding('fnd_1', { status: 'resolved', resolution: { reason: 'fixed', comment: '' }, resolved_at: stamp });
    expect(judgeReplace(state, 'fnd_1', resolve, answer(200, resolved))).toEqual([]);
    const suppress = { title: 'f', severity: 'low', status: 'suppressed', resolution: { reason: 'wont_fix' } };
    expect(judgeReplace(state, 'fnd_1', suppress, answer(200, resolved)).map((d) => d.rule)).toEqual(['updateFinding.2']);
    const tag = state.known.get('fnd_1')!.etag!;
    expect(judgeDelete(state, 'fnd_1', answer(204, undefined), `W/${tag}`).map((d) => d.rule)).toEqual(['idempotency-and-concurrency.3']);
    expect(judgeDelete(state, 'fnd_1', answer(204, undefined), tag)).toEqual([]);
  });

  it('wants the first answer on a replay, even after the resource changed', () => {
    const state = emptyState(facts);
    const body = { name: 'p', severity: 'high' };
    const first = policy('pol_1');
    judgeKeyedCreate(state, 'policies', 'k', body, answer(201, first));
    expect(judgeKeyedCreate(state, 'policies', 'k', body, answer(201, first, { 'idempotent-replayed': 'true' }))).toEqual([]);
    const now = judgeKeyedCreate(state, 'policies', 'k', body, answer(201, { ...first, version: 2 }, { 'idempotent-replayed': 'true' }));
    expect(now.map((d) => d.rule)).toEqual(['idempotency-and-concurrency.1']);
    expect(judgeKeyedCreate(state, 'policies', 'k', { ...body, name: 'q' }, answer(201, first)).map((d) => d.rule)).toEqual(['errors.14']);
  });

  it('counts one request per answer within a window, and takes a reset or another policy as a new start', () => {
    const quota = quotaTracker();
    expect(quota.observe('"q"; q=10; w=60', '"q"; r=9; t=60', now, 200)).toEqual([]);
    expect(quota.observe('"q"; q=10; w=60', '"q"; r=7; t=59', now + 10, 200)).toEqual([]);
    expect(quota.observe('"q"; q=10; w=60', '"q"; r=7; t=59', now + 20, 200).map((d) => d.rule)).toEqual(['rate-limits.2']);
    expect(quota.observe('"failed-auth"; q=30; w=60', '"failed-auth"; r=29; t=60', now + 30, 401)).toEqual([]);
    expect(quota.observe('"q"; q=10; w=60', '"q"; r=9; t=60', now + 61_000, 200)).toEqual([]);
  });
});
