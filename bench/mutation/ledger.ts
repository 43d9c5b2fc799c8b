// Every mutant that survived a run, with its verdict, each with the reason:
// - `equivalent`: no behaviour changes;
// - `unobservable`: behaviour changes that no client can see through the API or its webhooks
//   (the kit runs the server in development mode, so what only production does counts here too);
// - `unspecified`: a client can see the change, but the document does not state the behaviour
//   (a check requiring it would fail implementations the document allows);
// these three leave the kill rate's denominator. A `gap` is a behaviour the document states that the
// contract kit does not judge yet, and counts as a survivor until a check kills it (then its entry goes).
// Keys are `file:line:column:mutator:replacement` (lines from 0), as `npm run bench:mutation` prints them.

export interface Verdict {
  verdict: 'equivalent' | 'unobservable' | 'unspecified' | 'gap';
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
  'server/store/sqlite/store.ts:102:38:ArrowFunction:() => undefined': {
    verdict: 'unobservable',
    reason:
      'leases left by a dead process are released at start-up; the kit never sees a server die mid-delivery (the ' +
      'crash tests in test/webhooks/sqlite/ do)',
  },
  'server/webhooks/endpoints.ts:135:19:ArithmeticOperator:this.#policy.concurrency + this.#inFlight': {
    verdict: 'gap',
    reason:
      'the dispatcher starts attempts past its concurrency limit; what the document promises under load (queueing behind ' +
      "a webhook's own slots, the first retry on schedule) is never judged with more deliveries due than slots",
  },
  'server/webhooks/ssrf.ts:153:2:Regex:/(^|\\.)invalid\\.?/i': {
    verdict: 'unobservable',
    reason:
      'only hostnames with a label starting `invalid` outside `.invalid` change: they fail at once instead of after a DNS ' +
      "lookup; the kit's receivers are on addresses, never such names",
  },
  'server/webhooks/ssrf.ts:153:2:Regex:/(\\.)invalid\\.?$/i': {
    verdict: 'unobservable',
    reason:
      'only the bare name `invalid` changes: it is refused by the resolver instead of by the short-cut, with the same failed delivery',
  },
  'server/webhooks/ssrf.ts:153:2:Regex:/(^|\\.)invalid\\.$/i': {
    verdict: 'unobservable',
    reason:
      'a `.invalid` name without the final dot is then asked of the system resolver, which also fails it; only the time to fail differs',
  },
};
