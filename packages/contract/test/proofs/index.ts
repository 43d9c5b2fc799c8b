// Every proof file's proofs, for the ledger (proofs.test.ts).
import type { RuleProof } from '../prove.ts';
import { PROOFS as axes } from './axes.ts';
import { PROOFS as deliveries } from './deliveries.ts';
import { PROOFS as problems } from './problems.ts';
import { PROOFS as rawProblems } from './raw-problems.ts';
import { PROOFS as requests } from './requests.ts';
import { PROOFS as resources } from './resources.ts';

export const FAMILY_PROOFS: readonly RuleProof[] = [...problems, ...rawProblems, ...requests, ...resources, ...deliveries, ...axes];
