// Proofs of the resources rules: each fault breaks exactly one rule the document states in words.
import type { RuleProof } from '../prove.ts';

export const PROOFS: readonly RuleProof[] = [];
