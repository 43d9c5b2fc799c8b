// The proof ledger: the rules the kit says are proven (kit/rules/proven.ts, what `--rules` shows)
// are exactly the rules the fault suites prove, and every checked rule is proven or listed as not
// proven yet, so a rule that becomes checked without a proof fails here.
import { describe, expect, it } from 'vitest';
import { checksJudging } from '../contract/kit/registry.ts';
import { CATALOGUE, type RuleId } from '../contract/kit/rules/catalogue.ts';
import { PROVEN } from '../contract/kit/rules/proven.ts';
import { statusOf } from '../contract/kit/rules/rule.ts';
import { modelProofs } from './model-proofs.ts';
import { FAMILY_PROOFS } from './proofs/index.ts';
import { RULE_FAULTS } from './rule-faults.ts';
import { NOT_YET_PROVEN } from './unproven.ts';

/** What faults.test.ts proves beyond its rule faults (a throttled target, the documented schedule), and retry-faults.test.ts. */
const PROVEN_ELSEWHERE: RuleId[] = ['rate-limits.5', 'delivery-and-retries.4'];

const sorted = (ids: Iterable<string>) => [...new Set(ids)].sort();

describe('the proof ledger', () => {
  it('says proven of exactly the rules the fault suites prove', () => {
    const proofs = [
      ...RULE_FAULTS.map((fault) => fault[4]),
      ...PROVEN_ELSEWHERE,
      ...modelProofs().map((proof) => proof.rule),
      ...FAMILY_PROOFS.map((proof) => proof.rule),
    ];
    expect(sorted(PROVEN)).toEqual(sorted(proofs));
  });

  it('has a proving fault for every checked rule but those listed as not proven yet', () => {
    const checked = CATALOGUE.filter((entry) => statusOf(entry) === 'checked' && checksJudging(entry.id).length > 0).map((e) => e.id);
    const proven = new Set<string>(PROVEN);
    const listed = new Set<string>(NOT_YET_PROVEN);
    expect(
      checked.filter((id) => !proven.has(id) && !listed.has(id)),
      'checked rules without a proving fault',
    ).toEqual([]);
    expect(
      NOT_YET_PROVEN.filter((id) => proven.has(id)),
      'proven now: remove from test/kit/unproven.ts',
    ).toEqual([]);
    expect(
      NOT_YET_PROVEN.filter((id) => !checked.includes(id)),
      'not checked rules',
    ).toEqual([]);
  });
});
