// The proof ledger: the rules the fault suites prove are exactly the checked rules the kit does not
// list as not proven yet (kit/rules/unproven.ts, what `--rules` reads), so a rule that becomes
// checked without a proof fails here, and so does a proof of a rule the kit says is owed.
import { describe, expect, it } from 'vitest';
import { checksJudging } from '../src/kit/registry.ts';
import { CATALOGUE } from '../src/kit/rules/catalogue.ts';
import { statusOf } from '../src/kit/rules/rule.ts';
import { NOT_YET_PROVEN } from '../src/kit/rules/unproven.ts';
import { LEDGER } from './proofs/index.ts';

const sorted = (ids: Iterable<string>) => [...new Set(ids)].sort();

describe('the proof ledger', () => {
  const checked = CATALOGUE.filter((entry) => statusOf(entry) === 'checked' && checksJudging(entry.id).length > 0).map((e) => e.id);
  const proofs = sorted([...LEDGER.proofs.map((proof) => proof.rule), ...LEDGER.families.map((family) => family.rule)]);

  it('has a proving fault for exactly the checked rules the kit does not list as not proven yet', () => {
    const owed = new Set<string>(NOT_YET_PROVEN);
    expect(proofs, 'the proven rules (checked and not in kit/rules/unproven.ts)').toEqual(sorted(checked.filter((id) => !owed.has(id))));
  });

  it('lists as not proven yet only checked rules', () => {
    expect(NOT_YET_PROVEN.filter((id) => !checked.includes(id))).toEqual([]);
  });
});
