// Each rule of a family is broken in one cell of its axis at a time, and the kit names it every time.
import { FAMILIES } from './proofs/families.ts';
import { proveFamilies } from './prove.ts';

proveFamilies('cross-cutting rules, each proven by a family of faults along the classes of answer', FAMILIES);
