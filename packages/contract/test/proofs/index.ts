// The proof ledger: every proof of a rule, in one syntax (RuleProof, faults from the fault DSL),
// and the families that prove a rule along an axis; proofs.test.ts holds it against the catalogue.
import { modelProofs } from '../model-proofs.ts';
import type { RuleFamily, RuleProof } from '../prove.ts';
import { RULE_PROOFS } from '../rule-faults.ts';
import { PROOFS as axes } from './axes.ts';
import { PROOFS as deliveries } from './deliveries.ts';
import { FAMILIES } from './families.ts';
import { PROOFS as problems } from './problems.ts';
import { PROOFS as rawProblems } from './raw-problems.ts';
import { PROOFS as requests } from './requests.ts';
import { PROOFS as resources } from './resources.ts';

/** The proofs each run by the file of their family of checks (proofs-*.test.ts). */
const FAMILY_PROOFS: readonly RuleProof[] = [...problems, ...rawProblems, ...requests, ...resources, ...deliveries, ...axes];

export const LEDGER: { proofs: readonly RuleProof[]; families: readonly RuleFamily[] } = {
  proofs: [...RULE_PROOFS, ...modelProofs(), ...FAMILY_PROOFS],
  families: FAMILIES,
};
