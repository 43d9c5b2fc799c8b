// Unit tests of the rules the stores leave to the domain: when a policy may be deleted, which
// policy a finding may link to, and how a webhook's secrets rotate and sign.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/schema.d.ts';
import { newFinding, policyLinkRefusal } from '../../packages/core/src/domain/findings.ts';
import { deletionRefusal, newPolicy } from '../../packages/core/src/domain/policies.ts';
import { rotatedSecrets, SECRET_OVERLAP_MS, type StoredSecrets, signingSecrets } from '../../packages/core/src/domain/webhooks.ts';
import { DEVICE_ID } from '../server/helpers.ts';

type Finding = components['schemas']['Finding'];

const at = '2026-11-02T09:00:00.000Z';
const POLICY = 'pol_01jbz1a2b3c4d5e6f7g8h9j0k1';

describe('policy deletion', () => {
  const policy = { ...newPolicy(POLICY, { name: 'p', severity: 'high' }, at), compliance_status: 'compliant' as const };

  it('is refused with policy-in-use while the policy is non-compliant, and allowed once it is compliant', () => {
    expect(deletionRefusal({ ...policy, compliance_status: 'non_compliant' })).toEqual({
      kind: 'policy-in-use',
      detail: `Open or in-progress findings still reference policy ${POLICY}; resolve or suppress them first.`,
    });
    expect(deletionRefusal(policy)).toBeUndefined();
  });
});

describe('a finding links to a policy', () => {
  const finding = newFinding(
    'fnd_01jbz3k7q2w9x8v6t5r4p3n2m1',
    { title: 't', severity: 'high', device_id: DEVICE_ID, policy_id: POLICY },
    at,
  ) as Finding;

  it('only when the policy exists; no link and a delete need none', () => {
    expect(policyLinkRefusal(finding, false)).toEqual({
      kind: 'validation',
      pointer: '/body/policy_id',
      message: `no policy has the id ${POLICY}`,
    });
    expect(policyLinkRefusal(finding, true)).toBeUndefined();
    expect(policyLinkRefusal({ ...finding, policy_id: null }, false)).toBeUndefined();
    expect(policyLinkRefusal(null, false)).toBeUndefined();
  });
});

describe('secret rotation', () => {
  const replacedAt = Date.parse(at);
  const change = (secret: string | null | undefined) => ({
    keep: secret === undefined,
    secret: secret ?? null,
    previousUntil: replacedAt + SECRET_OVERLAP_MS,
  });
  const first: StoredSecrets = { secret: 'whsec_first', previousSecret: null, previousSecretExpiresAt: null };

  it('a replaced secret keeps signing beside the new one until its overlap ends', () => {
    const rotated = rotatedSecrets(first, change('whsec_second'));
    expect(rotated).toEqual({
      secret: 'whsec_second',
      previousSecret: 'whsec_first',
      previousSecretExpiresAt: replacedAt + SECRET_OVERLAP_MS,
    });
    expect(signingSecrets(rotated, replacedAt + 1)).toEqual({ secret: 'whsec_second', previousSecret: 'whsec_first' });
    expect(signingSecrets(rotated, replacedAt + SECRET_OVERLAP_MS)).toEqual({ secret: 'whsec_second', previousSecret: null });
  });

  it('omitting the secret keeps both; re-sending the current one changes nothing; null removes both', () => {
    const rotated = rotatedSecrets(first, change('whsec_second'));
    expect(rotatedSecrets(rotated, change(undefined))).toEqual(rotated);
    expect(rotatedSecrets(rotated, change('whsec_second'))).toEqual(rotated);
    expect(rotatedSecrets(rotated, change(null))).toEqual({ secret: null, previousSecret: null, previousSecretExpiresAt: null });
  });

  it('a second replacement within the overlap ends the first one: at most two secrets, never the same one twice', () => {
    const secrets = fc.oneof(fc.constant(undefined), fc.constant(null), fc.constantFrom('whsec_a', 'whsec_b', 'whsec_c'));
    fc.assert(
      fc.property(fc.array(secrets, { maxLength: 8 }), (changes) => {
        let stored: StoredSecrets = { secret: null, previousSecret: null, previousSecretExpiresAt: null };
        for (const secret of changes) {
          const before = stored;
          stored = rotatedSecrets(stored, change(secret));
          if (typeof secret === 'string' && before.secret !== null && before.secret !== secret)
            expect(stored.previousSecret).toBe(before.secret);
        }
        const signing = signingSecrets(stored, replacedAt);
        expect(signing.previousSecret === null || (signing.secret !== null && signing.previousSecret !== signing.secret)).toBe(true);
      }),
    );
  });
});
