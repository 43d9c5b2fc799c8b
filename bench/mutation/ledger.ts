// Every mutant that survived a run, with its verdict: `equivalent` (no behaviour changes) or
// `unobservable` (behaviour changes that no client can see through the API or its webhooks), each
// with the reason, and leaves the kill rate's denominator; a `gap` is a behaviour the contract kit
// does not judge yet, and counts as a survivor until a check kills it (then its entry goes).
// Keys are `file:line:column:mutator:replacement` (lines from 0), as `npm run bench:mutation` prints them.

export interface Verdict {
  verdict: 'equivalent' | 'unobservable' | 'gap';
  reason: string;
}

export const LEDGER: Record<string, Verdict> = {
  'server/webhooks/endpoints.ts:108:76:UnaryOperator:+1': {
    verdict: 'gap',
    reason:
      'an endpoint that recovers adds its in-flight attempts to the failing count instead of removing them, so failing ' +
      'endpoints keep fewer slots than the document promises healthy ones; seen only with several endpoints failing and ' +
      'recovering under load, which no check provokes yet',
  },
};
