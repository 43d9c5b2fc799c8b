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

const ONE_INSTANCE =
  "other processes' leases are ignored: with one instance on the database (how the kit runs the reference server) the leases are this process's own attempts, already counted, so nothing changes; several instances on PostgreSQL would show it (the multi-instance tests do)";
const NEW_ONES_NEVER_CANDIDATES =
  "every due delivery taken as a retry: the claim's query already leaves out the new deliveries of a webhook whose circuit is open until its probe pause has passed (the plan's retriesOnly), so take() never sees one it would now let through; the circuit-breaker check sees the fourth event wait for the probe with it as without it";
const RETRIES_HELD_TO_THE_PAUSE =
  'retries of a webhook whose circuit is open taken as new deliveries: they wait for the probe pause as well as their schedule; the first pause ends a few milliseconds after the first retry is due (both count from about the same failures), and later pauses and retries are minutes apart, beyond a contract run';
const FAILING_SLOTS_NEED_FAILING_LOAD =
  "the count of slots failing webhooks hold together (at most three quarters, so a webhook that answers always finds one): only several failing receivers holding most slots at once show it, and the slot-sharing check's slow receivers hold and answer, they never fail (a failing load that takes most slots with attempts that time out lasts 10 s a wave)";
const SEEK_COLUMNS =
  'which filters SQLite seeks by an index and which it only tests on the rows (the unary + in the query): the same rows in the same order, only the query plan changes (npm run bench:scale measures it)';
const CLAIM_WINDOWS =
  "how many windows of due rows one claim reads before it returns: the same deliveries stay eligible and the next claim (an attempt's end or the next poll wakes it) finds what this one left; only the work per claim changes";
const SHUTDOWN_ONLY =
  'what the dispatcher does when the server stops (the grace for attempts in flight, the timer not rescheduled); the kit never stops the server it judges (the shutdown tests in test/webhooks/ do)';
const RESERVE_SIZE =
  'the slots kept free for webhooks with nothing in flight: a webhook then gets fewer attempts at once (down to one), which the document allows (at most 8, and a service may have fewer slots); the slot-sharing check still sees the healthy webhook served';
const REQUEST_LOG =
  "the request's log line (its level, message, fields and timing, or the line itself): the log is the operator's, no client sees it";
const IF_MATCH_BEYOND_ONE_TAG =
  "If-Match with `*` or with a list of tags: RFC 9110 §13.1.1 defines both, but the document's If-Match says only 'the resource's current ETag is this one' (one tag, the one a read gave); a check sending `*` or a list would fail an implementation that follows that sentence as written";
const DETAIL_TEXT = "the wording of a problem's `detail`, which the document does not fix (the status, type and pointer are unchanged)";
const DOCS_ROUTES =
  "the served document and docs page (/openapi.json, /openapi.yaml, /docs): routes outside the document's /v1 operations, whose compression and content the contract does not state (the repository's own server tests do)";

const OPAQUE_CURSOR =
  "what the cursor's decoder accepts inside a cursor whose filter digest matches: cursors are opaque (the document), so a client sends only the cursors it was given and garbled ones, which fail at the JSON or the digest before this test; only a client that rebuilt this server's encoding by hand could send a timestamp with text around it";
const REFUSED_ADDRESSES =
  "which webhook addresses the service refuses is its own policy: the document names none (a refused one is url-not-allowed), and in development mode, where the kit judges the server, it refuses none that a run sends; the kit judges a refusal's problem where it meets one";

const ANY_TOKEN =
  "the scopes of the key any well-formed bearer token becomes in the any-token mode (development only, for the stateful mock's shim); the reference server the kit judges runs with it off";
const SHARED_RATE_STORE =
  'whether the quota counters live in the shared store: there is one only with PostgreSQL and several instances, and the kit judges one instance on SQLite, where each way keeps the counts in this process (the multi-instance tests judge the shared quota)';
const WRITER_LOCK =
  "how the SQLite writer lock reads the pid in its lock file: it matters only to a second process opening the same database file, which one server never does (test/store's lock tests do)";
const LITERAL_REFUSALS_IN_DEVELOPMENT =
  'whether a URL whose host is an IP literal is held to the refused addresses at once: in development mode, where the bench runs the server, the document states no refusal, and an accepted cloud-metadata URL is legal there (webhook-addresses then judges nothing of it); in production mode webhook-addresses fails it (shown with the block removed, against a production-mode server: the loopback 127.0.0.1 accepted)';

const EXPRESS_FRESH =
  'If-None-Match with the current tag no longer hits in the core, but Express answers the conditional GET with 304 itself (its freshness test compares If-None-Match with the ETag the route sets), so a client gets the same 304';
const SAME_SECRET_AGAIN =
  'a PUT that sends the current secret again is taken as a replacement by itself, so the secret replaced before it stops signing (its overlap ends): the document keeps a replaced secret valid 24 hours and ends the overlap when the secret is replaced again, but does not say whether sending the same secret replaces it';
const THREE_DAYS =
  'whether a webhook is disabled after its retries: read only once a delivery has used them all, about three days after its first attempt, beyond any run (--coverage lists that cell as not gated)';
const TESTS_ONLY_READS = "a store read that only the repository's tests use: no route serves it";
const WAKE_ON_ENQUEUE =
  'a new event no longer wakes the dispatcher at once: it still wakes every second, inside every timing the document states';
const PRUNING = 'finished deliveries pruned after their retention: no client reads them';
const REFUSED_AT_SEND =
  'how a delivery refused at send time (its host resolved to a refused address) is described: in development mode, where the kit judges the server, no address is refused';

export const LEDGER: Record<string, Verdict> = {
  'packages/core/src/domain/cursor.ts:39:7:Regex:/^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z/': {
    verdict: 'unobservable',
    reason: OPAQUE_CURSOR,
  },
  'packages/core/src/domain/cursor.ts:39:7:Regex:/\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$/': {
    verdict: 'unobservable',
    reason: OPAQUE_CURSOR,
  },
  'packages/core/src/domain/cursor.ts:39:7:Regex:/^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})Z$/': {
    verdict: 'equivalent',
    reason:
      'fractional seconds required in the timestamp a cursor carries: every created_at the server writes has milliseconds (Date#toISOString), so every cursor it mints has them',
  },
  'packages/core/src/domain/idempotency.ts:9:20:MethodExpression:Object.entries(value)': {
    verdict: 'unspecified',
    reason:
      'a replay needs the same key and an identical body (the document); whether a body with its members in another order is identical is left open (JSON objects are unordered, but an implementation comparing bytes answers 409 and is not wrong), so no check can require either; the reference server counts them as identical (sorted keys in the core)',
  },
  'packages/core/src/domain/idempotency.ts:9:47:ArrowFunction:() => undefined': {
    verdict: 'unspecified',
    reason:
      'the members of a reused body left in the order sent, as the entry for column 20: whether that order makes another body is not stated',
  },
  'packages/core/src/use-cases/webhook-health.ts:32:26:OptionalChaining:(await rows.lockWebhook(attempt.webhookId)).enabled': {
    verdict: 'unobservable',
    reason:
      "a webhook deleted while its last attempt was in flight: the disable rule then throws instead of finding nothing to disable, the batch's outcomes are not recorded and the error is logged; their leases run out, the deleted webhook's delivery is cancelled at its next claim and the others are sent again, which at-least-once delivery allows; nothing reaches a client of the gone webhook",
  },
  'server/routes/webhooks.ts:17:28:BlockStatement:{}': { verdict: 'unspecified', reason: REFUSED_ADDRESSES },
  'server/routes/webhooks.ts:18:46:StringLiteral:``': {
    verdict: 'unspecified',
    reason: "the url-not-allowed problem's detail text: `detail` is free text, and which addresses are refused is the service's policy",
  },
  'packages/core/src/domain/credentials.ts:8:38:StringLiteral:"Stryker was here!"': {
    verdict: 'equivalent',
    reason: 'a missing Authorization header read as another text that carries no bearer token: no token either way',
  },
  'server/http/cors.ts:13:35:BooleanLiteral:true': {
    verdict: 'unspecified',
    reason:
      'a server configured with no browser origins allows every origin: which origins a deployment allows is its configuration, and the document names none (the kit judges CORS on the origin it is given, and only tries its default one)',
  },
  'server/webhooks/dispatcher.ts:97:15:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason:
      "the dispatcher no longer claims again at once when a claim filled every free slot: the next claim comes at the next wake-up (an attempt's end, a new event, the idle poll), and the deliveries still go out; only the work per wake-up changes",
  },
  'server/webhooks/dispatcher.ts:97:15:LogicalOperator:pumpAgain || running': {
    verdict: 'unobservable',
    reason:
      "the dispatcher claims again and again while it runs instead of sleeping: every due delivery still goes out on time; only the server's CPU and its database's load show it",
  },
  'server/webhooks/endpoints.ts:108:34:AssignmentOperator:this.#failingInFlight -= (isFailing ? 1 : -1) * state.inFlight': {
    verdict: 'gap',
    reason:
      "the slots failing endpoints hold are counted with the wrong sign when an endpoint starts or stops failing with attempts open; as the entry for column 76: seen only with several endpoints failing and recovering while attempts are open, and the slot-sharing check's slow receivers hold their requests and answer, they never fail",
  },
  'server/webhooks/ssrf.ts:214:13:CallExpression:;': {
    verdict: 'unobservable',
    reason:
      "a webhook host whose name does not resolve: the attempt waits for its time-out instead of failing at once; it fails either way and is retried on the same schedule, and the document states no time for it (the kit's receivers are addresses, not names)",
  },
  'server/webhooks/endpoints.ts:108:76:UnaryOperator:+1': {
    verdict: 'gap',
    reason:
      "an endpoint that recovers adds its in-flight attempts to the failing count instead of removing them, so failing endpoints keep fewer slots than they should; seen only with several endpoints failing and recovering while attempts are open, and the slot-sharing check's slow receivers hold their requests and answer, they never fail",
  },
  'server/store/sqlite/store.ts:102:38:ArrowFunction:() => undefined': {
    verdict: 'unobservable',
    reason:
      'leases left by a dead process are released at start-up; the kit never sees a server die mid-delivery (the ' +
      'crash tests in test/webhooks/sqlite/ do)',
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
  'packages/core/src/domain/cursor.ts:39:80:Regex:/[a-z]{3}_[0-9a-z]{26}$/': {
    verdict: 'unobservable',
    reason:
      "cursors are opaque: the id inside one is only malformed in a cursor forged in the reference server's own encoding, which no client of the document can produce",
  },
  'packages/core/src/domain/cursor.ts:39:80:Regex:/^[a-z]{3}_[0-9a-z]{26}/': {
    verdict: 'unobservable',
    reason:
      "cursors are opaque: the id inside one is only malformed in a cursor forged in the reference server's own encoding, which no client of the document can produce",
  },
  'packages/core/src/domain/etag.ts:18:19:MethodExpression:part': {
    verdict: 'unspecified',
    reason:
      'only a list of entity tags with spaces around its commas reaches it; the document states If-None-Match/If-Match with one tag ("if the current ETag is this one"), not RFC 9110\'s lists, and Node strips a single value\'s surrounding spaces',
  },
  'packages/core/src/domain/etag.ts:19:22:ConditionalExpression:true': {
    verdict: 'equivalent',
    reason: 'empty list members kept: an empty member never equals a current tag nor `*`',
  },
  'packages/core/src/domain/etag.ts:19:31:StringLiteral:"Stryker was here!"': {
    verdict: 'equivalent',
    reason: 'empty list members kept: an empty member never equals a current tag nor `*`',
  },
  "packages/core/src/domain/etag.ts:31:9:MethodExpression:listOf(header).every(tag => tag === '*' || tag.replace(/^W\\//, '') === current)":
    {
      verdict: 'unspecified',
      reason: 'differs only for a list of several tags; the document states If-None-Match with one tag, not RFC 9110 lists',
    },
  'packages/core/src/domain/etag.ts:31:38:ConditionalExpression:false': {
    verdict: 'unspecified',
    reason: '`If-None-Match: *` no longer matches: the document does not state `*`',
  },
  'packages/core/src/domain/etag.ts:31:46:StringLiteral:""': {
    verdict: 'unspecified',
    reason: '`If-None-Match: *` no longer matches: the document does not state `*`',
  },
  'packages/core/src/domain/etag.ts:31:65:Regex:/W\\//': {
    verdict: 'unspecified',
    reason:
      "differs only for tags with `W/` inside them (the reference server's tags never hold one) or weak tags; the document states neither",
  },
  'packages/core/src/domain/etag.ts:31:73:StringLiteral:"Stryker was here!"': {
    verdict: 'unspecified',
    reason:
      'weak tags (`W/"…"`) in If-None-Match no longer match: the document states comparison with the current ETag, not RFC 9110\'s weak comparison',
  },
  'packages/core/src/domain/idempotency.ts:9:62:ConditionalExpression:false': {
    verdict: 'unspecified',
    reason:
      'the canonical member order of a remembered body changes: two bodies differ only when the same members are sent in another order, and the document does not say whether that is "the same body"',
  },
  'packages/core/src/domain/idempotency.ts:9:62:ConditionalExpression:true': {
    verdict: 'unspecified',
    reason:
      'the canonical member order of a remembered body changes: two bodies differ only when the same members are sent in another order, and the document does not say whether that is "the same body"',
  },
  'packages/core/src/domain/idempotency.ts:9:62:EqualityOperator:a >= b': {
    verdict: 'unspecified',
    reason:
      'the canonical member order of a remembered body changes: two bodies differ only when the same members are sent in another order, and the document does not say whether that is "the same body"',
  },
  'packages/core/src/domain/idempotency.ts:9:62:EqualityOperator:a <= b': {
    verdict: 'unspecified',
    reason:
      'the canonical member order of a remembered body changes: two bodies differ only when the same members are sent in another order, and the document does not say whether that is "the same body"',
  },
  'packages/core/src/domain/idempotency.ts:9:70:UnaryOperator:+1': {
    verdict: 'unspecified',
    reason:
      'the canonical member order of a remembered body changes: two bodies differ only when the same members are sent in another order, and the document does not say whether that is "the same body"',
  },
  'packages/core/src/use-cases/recipients.ts:17:11:ConditionalExpression:true': {
    verdict: 'equivalent',
    reason:
      'a test event for one webhook reaches this only after the test-support route refused a webhook that is not enabled or not subscribed; the check here repeats it',
  },
  'packages/core/src/use-cases/recipients.ts:17:11:LogicalOperator:webhook || receives(webhook, type)': {
    verdict: 'equivalent',
    reason:
      'a test event for one webhook reaches this only after the test-support route refused a webhook that is missing, not enabled or not subscribed',
  },
  'packages/core/src/use-cases/recipients.ts:17:63:ArrayDeclaration:["Stryker was here"]': {
    verdict: 'equivalent',
    reason: 'the branch for a webhook that does not receive the type; the test-support route refused such a webhook before',
  },
  'packages/core/src/use-cases/recipients.ts:19:24:ArrayDeclaration:["Stryker was here"]': {
    verdict: 'unobservable',
    reason:
      'an extra delivery row for a webhook id that does not exist: the next claim cancels it as belonging to a deleted webhook, and nothing is sent',
  },
  'packages/core/src/use-cases/recipients.ts:21:42:ObjectLiteral:{}': {
    verdict: 'equivalent',
    reason:
      'the store lists every webhook and the code keeps those that are enabled and subscribed: the same recipients, read less efficiently',
  },
  'packages/core/src/use-cases/recipients.ts:22:17:MethodExpression:rows': {
    verdict: 'equivalent',
    reason:
      'without the slice a page of 101 rows is taken whole and the next read starts after its last row: every recipient once, as before',
  },
  'packages/core/src/use-cases/recipients.ts:23:16:MethodExpression:page': {
    verdict: 'equivalent',
    reason: 'the store already returns only enabled webhooks subscribed to the type: the filter in code keeps every row',
  },
  'packages/core/src/use-cases/recipients.ts:24:11:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason: 'only a type with more than 100 enabled subscribers has a second page; a kit run never has that many',
  },
  'packages/core/src/use-cases/recipients.ts:24:11:EqualityOperator:rows.length >= PAGE': {
    verdict: 'unobservable',
    reason: 'differs only with exactly 100 enabled subscribers to one type; a kit run never has that many',
  },
  'packages/core/src/use-cases/recipients.ts:25:20:UnaryOperator:+1': {
    verdict: 'unobservable',
    reason: "the next page's start matters only with more than 100 enabled subscribers to one type; a kit run never has that many",
  },
  'packages/core/src/use-cases/webhook-health.ts:31:28:StringLiteral:""': {
    verdict: 'unobservable',
    reason: 'a webhook is disabled as failing only after about three days of retries; no run of the kit lasts that long',
  },
  'server/http/auth-throttle.ts:31:37:OptionalChaining:resetTime.getTime': {
    verdict: 'equivalent',
    reason: 'the memory store always gives a reset time',
  },
  'server/http/auth-throttle.ts:31:61:ArithmeticOperator:Date.now() - WINDOW_SECONDS * 1000': {
    verdict: 'equivalent',
    reason: 'the fallback for a store without reset times; the memory store always gives one',
  },
  'server/http/auth-throttle.ts:31:74:ArithmeticOperator:WINDOW_SECONDS / 1000': {
    verdict: 'equivalent',
    reason: 'the fallback for a store without reset times; the memory store always gives one',
  },
  'server/http/client-errors.ts:11:79:BlockStatement:{}': {
    verdict: 'unobservable',
    reason: 'only a connection the client already reset or cannot write to: no answer can reach that client either way',
  },
  'server/http/client-errors.ts:12:4:CallExpression:;': {
    verdict: 'unobservable',
    reason: 'only a connection the client already reset or cannot write to: no answer can reach that client either way',
  },
  'server/http/database-health.ts:73:53:BooleanLiteral:true': {
    verdict: 'unobservable',
    reason: "readiness when the database does not answer; the kit's target's database always answers",
  },
  'server/http/database-health.ts:77:6:CallExpression:;': {
    verdict: 'unobservable',
    reason: 'readiness bookkeeping after a failed write; nothing in a kit run fails to write',
  },
  'server/http/docs-page.ts:39:10:ConditionalExpression:true': {
    verdict: 'unobservable',
    reason: 'the /docs page, not the API the document describes',
  },
  'server/http/docs-page.ts:39:10:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason: 'the /docs page, not the API the document describes',
  },
  'server/http/docs-page.ts:39:10:EqualityOperator:current === version': {
    verdict: 'unobservable',
    reason: 'the /docs page, not the API the document describes',
  },
  'server/http/docs-page.ts:84:39:ArrayDeclaration:["Stryker was here"]': {
    verdict: 'unobservable',
    reason: 'the /docs page, not the API the document describes',
  },
  'server/http/logging.ts:22:88:ObjectLiteral:{}': {
    verdict: 'unobservable',
    reason: 'log lines only (level, redaction paths, base fields): nothing a client receives',
  },
  'server/http/logging.ts:22:99:StringLiteral:""': {
    verdict: 'unobservable',
    reason: 'log lines only (level, redaction paths, base fields): nothing a client receives',
  },
  'server/http/logging.ts:26:19:Regex:/[\\w.:-]{1,128}$/': {
    verdict: 'unspecified',
    reason:
      'which incoming X-Request-Id values the server keeps instead of making its own: the document lists X-Request-Id as a header browsers may read, not what it holds',
  },
  'server/http/logging.ts:26:19:Regex:/^[\\w.:-]{1,128}/': {
    verdict: 'unspecified',
    reason:
      'which incoming X-Request-Id values the server keeps instead of making its own: the document lists X-Request-Id as a header browsers may read, not what it holds',
  },
  'server/http/logging.ts:26:19:Regex:/^[\\w.:-]$/': {
    verdict: 'unspecified',
    reason:
      'which incoming X-Request-Id values the server keeps instead of making its own: the document lists X-Request-Id as a header browsers may read, not what it holds',
  },
  'server/http/logging.ts:26:19:Regex:/^[^\\w.:-]{1,128}$/': {
    verdict: 'unspecified',
    reason:
      'which incoming X-Request-Id values the server keeps instead of making its own: the document lists X-Request-Id as a header browsers may read, not what it holds',
  },
  'server/http/logging.ts:26:19:Regex:/^[\\W.:-]{1,128}$/': {
    verdict: 'unspecified',
    reason:
      'which incoming X-Request-Id values the server keeps instead of making its own: the document lists X-Request-Id as a header browsers may read, not what it holds',
  },
  'server/http/problems.ts:46:34:StringLiteral:"Stryker was here!"': {
    verdict: 'equivalent',
    reason:
      "no request reaches it: every error item the validator throws has a path (Ajv's instancePath, the path each of its BadRequests is given), unknown query parameters come with their pointer (validator.ts), and errors without items take the fallback with path ''; invalid-parameters sends an unknown query parameter beside an invalid one and judges both pointers, which this mutant leaves intact",
  },
  'server/http/rate-limit.ts:20:15:ConditionalExpression:true': {
    verdict: 'unspecified',
    reason:
      "the name of a limited key's policy: the document names only `unlimited` (for a key without quota) and leaves other names to the implementation",
  },
  'server/http/rate-limit.ts:20:15:ConditionalExpression:false': {
    verdict: 'unspecified',
    reason:
      "the name of a limited key's policy: the document names only `unlimited` (for a key without quota) and leaves other names to the implementation",
  },
  'server/http/rate-limit.ts:20:15:EqualityOperator:limit !== 0': {
    verdict: 'unspecified',
    reason:
      "the name of a limited key's policy: the document names only `unlimited` (for a key without quota) and leaves other names to the implementation",
  },
  'server/http/validator.ts:31:18:OptionalChaining:error.status': {
    verdict: 'equivalent',
    reason: '`error` is always set where the status is read',
  },
  'server/routes/webhooks.ts:17:6:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason:
      "the kit runs the server in development mode, where loopback receivers are allowed and these refusals (production's) are not reached; accepting every URL is what the document allows outside production",
  },
  'server/routes/webhooks.ts:18:91:ArrayDeclaration:[]': {
    verdict: 'unspecified',
    reason: 'a url-not-allowed problem without `errors`: the document does not require `errors` on this type',
  },
  'server/store/sqlite/gate.ts:103:26:StringLiteral:""': {
    verdict: 'unobservable',
    reason: 'the rollback of a nested transaction that failed inside the database; nothing in a kit run makes one fail',
  },
  'server/store/sqlite/outbox.ts:162:52:UnaryOperator:+Infinity': {
    verdict: 'unobservable',
    reason:
      'the next due time looked up from the start: without it the dispatcher still wakes every second, inside every timing the document states',
  },
  'server/store/sqlite/outbox.ts:166:9:OptionalChaining:row.next': {
    verdict: 'equivalent',
    reason: 'the row is always present (an aggregate)',
  },
  'server/store/sqlite/store.ts:99:66:LogicalOperator:txStore && store': {
    verdict: 'unobservable',
    reason: 'which store the gate gives nested calls of a recording transaction, which makes none',
  },
  'server/store/sqlite/store.ts:103:19:ArrowFunction:() => undefined': {
    verdict: 'unobservable',
    reason: "the dispatcher's next wake-up: without it it still wakes every second, inside every timing the document states",
  },
  'server/store/sqlite/store.ts:103:35:ArrowFunction:() => undefined': {
    verdict: 'unobservable',
    reason: "the dispatcher's next wake-up: without it it still wakes every second, inside every timing the document states",
  },
  'server/store/sqlite/store.ts:111:87:BooleanLiteral:true': {
    verdict: 'unobservable',
    reason: "readiness when the database does not answer; the kit's target's database always answers",
  },
  'server/store/sqlite/store.ts:128:45:BlockStatement:{}': {
    verdict: 'unobservable',
    reason: 'a test helper that empties the tables; the server never calls it',
  },
  'server/store/sqlite/store.ts:130:10:StringLiteral:""': {
    verdict: 'unobservable',
    reason: 'a test helper that empties the tables; the server never calls it',
  },
  'server/store/sqlite/store.ts:132:13:StringLiteral:""': {
    verdict: 'unobservable',
    reason: 'a test helper that empties the tables; the server never calls it',
  },
  'server/store/sqlite/store.ts:134:41:StringLiteral:``': {
    verdict: 'unobservable',
    reason: 'a test helper that empties the tables; the server never calls it',
  },
  'server/webhooks/claim.ts:58:22:ArithmeticOperator:limit + claimed.length': {
    verdict: 'unobservable',
    reason:
      'a claim reads a larger window of due rows: the same deliveries are eligible and the choice among them is at least as fair; only the work per claim changes, which no client sees',
  },
  'server/webhooks/dispatcher.ts:91:17:ArrowFunction:() => undefined': {
    verdict: 'unobservable',
    reason: ONE_INSTANCE,
  },
  'server/webhooks/dispatcher.ts:91:37:ArithmeticOperator:(leased.get(id) ?? 0) + endpoints.describe(id).inFlight': {
    verdict: 'gap',
    reason:
      "this process's attempts counted again as another process's would give a webhook fewer attempts at once (which the document allows: at most 8, and a service may have fewer slots); against one instance the slot-sharing check still sees 8 attempts open to its slow webhook with it as without it, so where it bites is not reached from outside yet",
  },
  'server/webhooks/dispatcher.ts:91:38:LogicalOperator:leased.get(id) && 0': {
    verdict: 'unobservable',
    reason: ONE_INSTANCE,
  },
  'server/webhooks/dispatcher.ts:177:22:StringLiteral:""': {
    verdict: 'unobservable',
    reason: "a log line's text",
  },
  'server/webhooks/dispatcher.ts:178:15:ConditionalExpression:true': {
    verdict: 'unobservable',
    reason: 'which log line is written when a circuit closes',
  },
  'server/webhooks/dispatcher.ts:178:15:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason: 'which log line is written when a circuit closes',
  },
  "server/webhooks/dispatcher.ts:178:15:EqualityOperator:circuit !== 'closed'": {
    verdict: 'unobservable',
    reason: 'which log line is written when a circuit closes',
  },
  'server/webhooks/dispatcher.ts:178:27:StringLiteral:""': {
    verdict: 'unobservable',
    reason: 'which log line is written when a circuit closes',
  },
  'server/webhooks/endpoints.ts:155:41:ConditionalExpression:true': {
    verdict: 'equivalent',
    reason: NEW_ONES_NEVER_CANDIDATES,
  },
  'server/webhooks/endpoints.ts:155:41:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason: RETRIES_HELD_TO_THE_PAUSE,
  },
  'server/webhooks/endpoints.ts:155:41:EqualityOperator:candidate.attempts >= 0': {
    verdict: 'equivalent',
    reason: NEW_ONES_NEVER_CANDIDATES,
  },
  'server/webhooks/endpoints.ts:155:41:EqualityOperator:candidate.attempts <= 0': {
    verdict: 'unobservable',
    reason: RETRIES_HELD_TO_THE_PAUSE,
  },
  'server/webhooks/endpoints.ts:157:6:UpdateOperator:plannedTotal--': {
    verdict: 'gap',
    reason:
      "within one claim the slots already given are not subtracted, so extra parallelism may take the last quarter kept free; the dispatcher's own cap still holds, and only a claim that finds more due deliveries of several webhooks than free slots at once shows it; the slot-sharing check's bursts are claimed a few deliveries at a time, and the order in which a healthy and a slow webhook's deliveries arrive is no evidence (ordering is not guaranteed)",
  },
  'server/webhooks/endpoints.ts:158:10:ConditionalExpression:true': {
    verdict: 'gap',
    reason: FAILING_SLOTS_NEED_FAILING_LOAD,
  },
  'server/webhooks/endpoints.ts:158:10:ConditionalExpression:false': {
    verdict: 'gap',
    reason: FAILING_SLOTS_NEED_FAILING_LOAD,
  },
  'server/webhooks/endpoints.ts:158:10:EqualityOperator:this.#state(candidate.webhookId).failures >= 0': {
    verdict: 'gap',
    reason: FAILING_SLOTS_NEED_FAILING_LOAD,
  },
  'server/webhooks/endpoints.ts:158:10:EqualityOperator:this.#state(candidate.webhookId).failures <= 0': {
    verdict: 'gap',
    reason: FAILING_SLOTS_NEED_FAILING_LOAD,
  },
  'server/webhooks/endpoints.ts:158:57:UpdateOperator:plannedFailing--': {
    verdict: 'gap',
    reason: FAILING_SLOTS_NEED_FAILING_LOAD,
  },
  'server/webhooks/endpoints.ts:169:10:CallExpression:;': {
    verdict: 'gap',
    reason:
      "within one claim due deliveries are taken in due order instead of every webhook's first before any second; only a claim that finds more due deliveries of several webhooks than free slots at once shows it; the slot-sharing check's bursts are claimed a few deliveries at a time, and the order in which a healthy and a slow webhook's deliveries arrive is no evidence (ordering is not guaranteed)",
  },
  'server/webhooks/ssrf.ts:101:70:ObjectLiteral:{}': {
    verdict: 'unspecified',
    reason: "the wording of a refusal's reason in the `url-not-allowed` problem, which the document does not fix",
  },
  'server/webhooks/ssrf.ts:102:12:StringLiteral:""': {
    verdict: 'unspecified',
    reason: "the wording of a refusal's reason, which the document does not fix",
  },
  'server/webhooks/ssrf.ts:103:11:StringLiteral:""': {
    verdict: 'unspecified',
    reason: "the wording of a refusal's reason, which the document does not fix",
  },
  'server/webhooks/ssrf.ts:104:16:StringLiteral:""': {
    verdict: 'unspecified',
    reason: "the wording of a refusal's reason, which the document does not fix",
  },
  'server/webhooks/ssrf.ts:105:9:StringLiteral:""': {
    verdict: 'unspecified',
    reason: "the wording of a refusal's reason, which the document does not fix",
  },
  'server/webhooks/ssrf.ts:106:12:StringLiteral:""': {
    verdict: 'unspecified',
    reason: "the wording of a refusal's reason, which the document does not fix",
  },
  'server/webhooks/ssrf.ts:107:18:StringLiteral:""': {
    verdict: 'unspecified',
    reason: "the wording of a refusal's reason, which the document does not fix",
  },
  'server/webhooks/ssrf.ts:108:15:StringLiteral:""': {
    verdict: 'unspecified',
    reason: "the wording of a refusal's reason, which the document does not fix",
  },
  'server/webhooks/ssrf.ts:109:12:StringLiteral:""': {
    verdict: 'unspecified',
    reason: "the wording of a refusal's reason, which the document does not fix",
  },
  "server/webhooks/ssrf.ts:115:28:LogicalOperator:kind === 'loopback' || mode === 'development'": {
    verdict: 'unobservable',
    reason:
      "the kit runs the server in development mode, where loopback receivers are allowed and these refusals (production's) are not reached; loopback and public stay allowed in development either way",
  },
  'server/webhooks/ssrf.ts:115:28:ConditionalExpression:true': {
    verdict: 'unobservable',
    reason:
      "the kit runs the server in development mode, where loopback receivers are allowed and these refusals (production's) are not reached; accepting every address is what the document allows outside production",
  },
  'server/webhooks/ssrf.ts:115:51:ConditionalExpression:true': {
    verdict: 'unobservable',
    reason:
      "the kit runs the server in development mode, where loopback receivers are allowed and these refusals (production's) are not reached; accepting every address is what the document allows outside production",
  },
  'packages/core/src/domain/events.ts:48:38:OptionalChaining:before.status': {
    verdict: 'equivalent',
    reason:
      "`before` is null only when a finding is created, and then `after.status === 'resolved'` is false first (a new finding is never resolved), so `before.status` is never read",
  },
  'packages/core/src/use-cases/finding-write.ts:14:9:OptionalChaining:(await tx.policies.get(policyId)).compliance_status': {
    verdict: 'equivalent',
    reason:
      "a finding's policy always exists when its compliance is read (a write that names a missing policy is refused before), so the fallback for a missing one is never used",
  },
  'packages/core/src/use-cases/finding-write.ts:14:65:StringLiteral:""': {
    verdict: 'equivalent',
    reason:
      "a finding's policy always exists when its compliance is read (a write that names a missing policy is refused before), so the fallback for a missing one is never used",
  },
  'server/http/database-health.ts:80:38:LogicalOperator:classifyDatabaseError(error) && this.#full': {
    verdict: 'unobservable',
    reason:
      'the reason /readyz gives when the database fails; the kit never breaks the database it judges (bench:faults and the database-fault scenario do)',
  },
  'server/http/operations.ts:31:4:MethodExpression:compression': {
    verdict: 'unspecified',
    reason: DOCS_ROUTES,
  },
  'server/http/operations.ts:36:15:ObjectLiteral:{}': {
    verdict: 'unspecified',
    reason: DOCS_ROUTES,
  },
  'server/http/operations.ts:36:82:StringLiteral:""': {
    verdict: 'unspecified',
    reason: DOCS_ROUTES,
  },
  'server/http/operations.ts:37:28:ArrowFunction:() => undefined': {
    verdict: 'unspecified',
    reason: DOCS_ROUTES,
  },
  'server/http/problems.ts:42:22:Regex:/malformed uri/i': {
    verdict: 'equivalent',
    reason:
      "the validator's message for a path that is not valid percent-encoding starts with `malformed uri`, so the pattern matches the same messages with or without its anchor",
  },
  'server/store/sqlite/findings.ts:60:31:ConditionalExpression:true': {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  'server/store/sqlite/findings.ts:60:31:ConditionalExpression:false': {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  "server/store/sqlite/findings.ts:60:31:LogicalOperator:column === lead && column === 'status'": {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  'server/store/sqlite/findings.ts:60:31:EqualityOperator:column !== lead': {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  'server/store/sqlite/findings.ts:60:50:ConditionalExpression:false': {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  "server/store/sqlite/findings.ts:60:50:EqualityOperator:column !== 'status'": {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  'server/store/sqlite/findings.ts:60:61:StringLiteral:""': {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  'server/store/sqlite/findings.ts:61:6:MethodExpression:given': {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  'server/store/sqlite/findings.ts:61:19:ArrowFunction:() => undefined': {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  'server/store/sqlite/findings.ts:61:31:ConditionalExpression:true': {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  'server/store/sqlite/findings.ts:61:31:ConditionalExpression:false': {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  "server/store/sqlite/findings.ts:61:31:LogicalOperator:column === 'status' && column === 'severity'": {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  "server/store/sqlite/findings.ts:61:31:EqualityOperator:column !== 'status'": {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  'server/store/sqlite/findings.ts:61:42:StringLiteral:""': {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  'server/store/sqlite/findings.ts:61:54:ConditionalExpression:false': {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  "server/store/sqlite/findings.ts:61:54:EqualityOperator:column !== 'severity'": {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  'server/store/sqlite/findings.ts:61:65:StringLiteral:""': {
    verdict: 'equivalent',
    reason: SEEK_COLUMNS,
  },
  'server/store/sqlite/outbox.ts:30:6:ConditionalExpression:false': {
    verdict: 'equivalent',
    reason:
      'an event with no recipients is stored with no deliveries instead of not at all: nothing is sent either way, and no route reads events without deliveries',
  },
  'server/store/sqlite/outbox.ts:47:6:ConditionalExpression:true': {
    verdict: 'equivalent',
    reason: 'the running dispatcher always listens, so the set is never missing or empty',
  },
  'server/store/sqlite/outbox.ts:47:6:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason:
      'the dispatcher is not woken at once when an event is stored: it finds the deliveries at its next poll, a little later; the document states no delivery latency',
  },
  'server/store/sqlite/outbox.ts:47:6:OptionalChaining:set.size': {
    verdict: 'equivalent',
    reason: 'the running dispatcher always listens, so the set is never missing or empty',
  },
  'server/webhooks/attempt.ts:33:6:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason:
      'the delivery-time check of a webhook URL: a URL it refuses is never stored (creation and update answer url-not-allowed with the same rules), so the kit cannot make the service attempt one',
  },
  'server/webhooks/claim.ts:73:37:ArithmeticOperator:limit + claimed.length': {
    verdict: 'unobservable',
    reason:
      "one claim takes more due deliveries than it has free slots: more attempts at once over all webhooks than the service's own cap, which the document does not state; each webhook's limit is still checked for every delivery taken",
  },
  'server/webhooks/claim.ts:89:35:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason: CLAIM_WINDOWS,
  },
  'server/webhooks/claim.ts:89:35:LogicalOperator:exclude.size === excludedBefore || lost === 0': {
    verdict: 'unobservable',
    reason: CLAIM_WINDOWS,
  },
  'server/webhooks/claim.ts:89:35:ConditionalExpression:true': {
    verdict: 'unobservable',
    reason: CLAIM_WINDOWS,
  },
  'server/webhooks/claim.ts:89:35:EqualityOperator:exclude.size !== excludedBefore': {
    verdict: 'unobservable',
    reason: CLAIM_WINDOWS,
  },
  'server/webhooks/claim.ts:89:70:ConditionalExpression:true': {
    verdict: 'unobservable',
    reason: CLAIM_WINDOWS,
  },
  'server/webhooks/claim.ts:89:70:EqualityOperator:lost !== 0': {
    verdict: 'unobservable',
    reason: CLAIM_WINDOWS,
  },
  'server/webhooks/dispatcher.ts:158:8:BooleanLiteral:running': {
    verdict: 'gap',
    reason:
      "the dispatcher stops polling while it runs: a due retry is sent only when something else wakes it (a new event, an attempt's end); the whole kit keeps the service busy enough to hide it, while delivery-retry run alone (the per-file mode) kills it; a quiet spell in the whole run would close it",
  },
  'server/webhooks/dispatcher.ts:158:8:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason: SHUTDOWN_ONLY,
  },
  'server/webhooks/dispatcher.ts:218:14:BlockStatement:{}': {
    verdict: 'equivalent',
    reason: "the attempt's deadline timer is left to fire after the attempt ended: aborting a request that has finished changes nothing",
  },
  'server/webhooks/dispatcher.ts:219:6:CallExpression:;': {
    verdict: 'equivalent',
    reason: "the attempt's deadline timer is left to fire after the attempt ended: aborting a request that has finished changes nothing",
  },
  'server/webhooks/dispatcher.ts:259:10:ConditionalExpression:true': {
    verdict: 'unobservable',
    reason: SHUTDOWN_ONLY,
  },
  'server/webhooks/dispatcher.ts:259:10:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason: SHUTDOWN_ONLY,
  },
  'server/webhooks/dispatcher.ts:259:10:EqualityOperator:flights.length >= 0': {
    verdict: 'unobservable',
    reason: SHUTDOWN_ONLY,
  },
  'server/webhooks/dispatcher.ts:259:10:EqualityOperator:flights.length <= 0': {
    verdict: 'unobservable',
    reason: SHUTDOWN_ONLY,
  },
  'server/webhooks/endpoints.ts:69:20:MethodExpression:Math.min(1, Math.floor(policy.concurrency / 4))': {
    verdict: 'unspecified',
    reason: RESERVE_SIZE,
  },
  'server/webhooks/endpoints.ts:69:43:ArithmeticOperator:policy.concurrency * 4': {
    verdict: 'unspecified',
    reason: RESERVE_SIZE,
  },
  'server/http/operations.ts:21:13:ObjectLiteral:{}': {
    verdict: 'unspecified',
    reason: "the body of /healthz, a liveness route outside the document's operations that the operators' guide states only by its 200",
  },
  'server/http/operations.ts:21:23:StringLiteral:""': {
    verdict: 'unspecified',
    reason: "the body of /healthz, a liveness route outside the document's operations that the operators' guide states only by its 200",
  },
  'server/routes/findings.ts:18:4:StringLiteral:""': {
    verdict: 'equivalent',
    reason: "a router mounted at /v1/findings matches the path '' as it matches '/': the list answers at the same URLs",
  },
  'server/store/sqlite/gate.ts:105:29:CallExpression:;': {
    verdict: 'unobservable',
    reason:
      'a transaction group SQLite rolled back by itself (it does on a full disk) is not failed as a whole; nothing in a kit run fills the disk (bench:faults disk does)',
  },
  'server/store/sqlite/store.ts:98:64:LogicalOperator:txStore && store': {
    verdict: 'equivalent',
    reason: "the claim's function builds its own transaction object from the connection; the store handed beside it is never read",
  },
  'server/store/sqlite/writer-lock.ts:39:31:BooleanLiteral:false': {
    verdict: 'equivalent',
    reason: 'the pid file removed at release without `force`: the hold wrote it, so it is there to remove unless someone else deleted it',
  },
  'server/webhooks/dispatcher.ts:256:6:OptionalChaining:unsubscribe()': {
    verdict: 'unobservable',
    reason: SHUTDOWN_ONLY,
  },
  "packages/core/src/domain/etag.ts:25:9:MethodExpression:listOf(header).every(tag => tag === '*' || tag === current)": {
    verdict: 'unspecified',
    reason: IF_MATCH_BEYOND_ONE_TAG,
  },
  'packages/core/src/domain/etag.ts:25:38:ConditionalExpression:false': {
    verdict: 'unspecified',
    reason: IF_MATCH_BEYOND_ONE_TAG,
  },
  'packages/core/src/domain/etag.ts:25:46:StringLiteral:""': {
    verdict: 'unspecified',
    reason: IF_MATCH_BEYOND_ONE_TAG,
  },
  'server/http/auth-throttle.ts:24:7:OptionalChaining:store.init({\n  windowMs: WINDOW_SECONDS * 1000\n} as Options)': {
    verdict: 'equivalent',
    reason: "both stores the throttle counts in (express-rate-limit's MemoryStore and the shared database store) define `init`",
  },
  'server/http/logging.ts:40:23:BlockStatement:{}': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/http/logging.ts:41:14:StringLiteral:""': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/http/logging.ts:42:14:StringLiteral:""': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/http/logging.ts:44:13:ConditionalExpression:true': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/http/logging.ts:44:13:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/http/logging.ts:44:13:EqualityOperator:status > 500': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/http/logging.ts:44:13:EqualityOperator:status < 500': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/http/logging.ts:44:29:StringLiteral:""': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/http/logging.ts:45:8:ObjectLiteral:{}': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/http/logging.ts:45:15:ObjectLiteral:{}': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/http/logging.ts:45:54:ObjectLiteral:{}': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/http/logging.ts:45:91:ArithmeticOperator:performance.now() + started': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/http/logging.ts:46:8:StringLiteral:``': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/http/rate-limit.ts:35:39:StringLiteral:""': {
    verdict: 'unspecified',
    reason:
      "the `rate-limited` problem's detail names the window's length instead of the answer's Retry-After; the document fixes no detail text, and the Retry-After header itself is unchanged",
  },
  'server/webhooks/ssrf.ts:66:4:StringLiteral:""': {
    verdict: 'unspecified',
    reason:
      "the wording of a refusal's reason (a reserved address described as `undefined`); the URL is still refused with `url-not-allowed`, and the document does not fix the wording",
  },
  'packages/core/src/domain/cursor.ts:20:9:MethodExpression:base64url(sha256(`${list}?${canonical}`))': {
    verdict: 'unspecified',
    reason:
      "the cursor's filter digest kept whole instead of its first 12 characters: cursors get longer (still under the parameter's bound), stay opaque and stay bound to their list and filters",
  },
  'server/http/auth.ts:46:41:ConditionalExpression:true': {
    verdict: 'unspecified',
    reason:
      "failed authentication never limited: the document says it is limited per address but gives its numbers only for the reference server, so the kit cannot tell a limit above its probe's cap from none; failed-auth-counting sends failures up to --rate-probe-max and then says skipped, naming the cap (a sentence bounding every implementation's limit would let it fail)",
  },
  'server/http/body.ts:16:101:MethodExpression:type': {
    verdict: 'unspecified',
    reason: DETAIL_TEXT,
  },
  'server/http/operations.ts:34:30:ArrowFunction:() => undefined': {
    verdict: 'unspecified',
    reason: DOCS_ROUTES,
  },
  'server/http/operations.ts:34:54:StringLiteral:""': {
    verdict: 'unspecified',
    reason: DOCS_ROUTES,
  },
  'server/http/problems.ts:62:19:Regex:/position (\\d)/': {
    verdict: 'unspecified',
    reason: DETAIL_TEXT,
  },
  'server/http/problems.ts:62:19:Regex:/position (\\D+)/': {
    verdict: 'unspecified',
    reason: DETAIL_TEXT,
  },
  'server/store/sqlite/gate.ts:93:6:CallExpression:;': {
    verdict: 'unobservable',
    reason:
      'a transaction group whose first savepoint SQLite refused is not failed as a whole; nothing in a kit run makes the database refuse one (bench:faults does)',
  },
  'server/webhooks/dispatcher.ts:18:23:ArithmeticOperator:60 / 60': {
    verdict: 'unobservable',
    reason: 'finished deliveries pruned every second instead of every hour: they are kept a week either way, and no client reads them',
  },
  'server/webhooks/dispatcher.ts:182:13:ArrowFunction:() => undefined': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/webhooks/dispatcher.ts:183:18:ObjectLiteral:{}': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/webhooks/dispatcher.ts:183:86:StringLiteral:""': {
    verdict: 'unobservable',
    reason: REQUEST_LOG,
  },
  'server/webhooks/endpoints.ts:140:29:ConditionalExpression:false': {
    verdict: 'equivalent',
    reason: NEW_ONES_NEVER_CANDIDATES,
  },
  'server/webhooks/endpoints.ts:140:39:EqualityOperator:now <= state.probeAt': {
    verdict: 'equivalent',
    reason: NEW_ONES_NEVER_CANDIDATES,
  },
  'server/webhooks/endpoints.ts:140:29:BooleanLiteral:retry': {
    verdict: 'unobservable',
    reason: RETRIES_HELD_TO_THE_PAUSE,
  },
  'server/webhooks/ssrf.ts:140:30:Regex:/\\[(.*)\\]$/': {
    verdict: 'equivalent',
    reason: "a URL's hostname is bracketed whole or not at all, so the anchor at its start changes nothing",
  },
  'server/webhooks/ssrf.ts:140:30:Regex:/^\\[(.*)\\]/': {
    verdict: 'equivalent',
    reason: "a URL's hostname is bracketed whole or not at all, so the anchor at its end changes nothing",
  },
  'packages/core/src/domain/cursor.ts:17:33:UnaryOperator:+1': {
    verdict: 'equivalent',
    reason:
      "the routes build the filters in one fixed key order, so a comparator that never says 'before' sorts the same entries the same way when a cursor is issued and when it is read: the digest differs from the correct one but matches itself",
  },
  'packages/core/src/domain/etag.ts:30:6:ConditionalExpression:true': {
    verdict: 'equivalent',
    reason:
      'sendRead then answers through res.json with the ETag set, and Express answers a fresh request (its own If-None-Match check, weak comparison and `*` included) with 304 itself',
  },
  'packages/core/src/domain/findings.ts:29:73:StringLiteral:""': {
    verdict: 'unspecified',
    reason: "the text of an error's `message`, which the document does not fix (its pointer and the problem's type are unchanged)",
  },
  'server/http/auth.ts:20:48:ArrayDeclaration:[]': {
    verdict: 'unobservable',
    reason: ANY_TOKEN,
  },
  'server/http/auth.ts:20:49:StringLiteral:""': {
    verdict: 'unobservable',
    reason: ANY_TOKEN,
  },
  'server/http/auth.ts:20:57:StringLiteral:""': {
    verdict: 'unobservable',
    reason: ANY_TOKEN,
  },
  'server/http/body.ts:12:6:ConditionalExpression:true': {
    verdict: 'equivalent',
    reason:
      'without this guard the request validator refuses the same requests with the same answers: a POST without a body 400 validation-error, text/plain 415 unsupported-media-type, broken JSON 400 malformed-json (compared with curl on both servers)',
  },
  'server/http/body.ts:12:21:StringLiteral:""': {
    verdict: 'equivalent',
    reason:
      "a PUT skips this guard and meets the request validator, which refuses a missing, non-JSON or broken body with the same status and type (as for the guard's condition always true)",
  },
  'server/http/database-health.ts:68:6:CallExpression:;': {
    verdict: 'unobservable',
    reason:
      "the readiness probe's timer left running after the database answered: it resolves a promise nobody awaits any more, and /readyz is outside the document",
  },
  'server/http/docs-page.ts:84:87:Regex:/\\s/g': {
    verdict: 'unspecified',
    reason: DOCS_ROUTES,
  },
  'server/http/docs-page.ts:84:87:Regex:/\\S+/g': {
    verdict: 'unspecified',
    reason: DOCS_ROUTES,
  },
  'server/http/operations.ts:30:54:ArrowFunction:() => undefined': {
    verdict: 'unspecified',
    reason: 'nothing compressed: the document says nothing of compression, and the kit asks for identity',
  },
  'server/http/operations.ts:31:4:ConditionalExpression:true': {
    verdict: 'unspecified',
    reason: 'every response compressible: the document says nothing of compression, and the kit asks for identity',
  },
  'server/http/operations.ts:31:4:ConditionalExpression:false': {
    verdict: 'unspecified',
    reason: 'nothing compressed: the document says nothing of compression, and the kit asks for identity',
  },
  "server/http/operations.ts:31:4:LogicalOperator:compression.filter(req, res) && /yaml/.test(String(res.getHeader('Content-Type')))": {
    verdict: 'unspecified',
    reason: DOCS_ROUTES,
  },
  'server/http/operations.ts:31:69:StringLiteral:""': {
    verdict: 'unspecified',
    reason: DOCS_ROUTES,
  },
  'server/http/rate-limit.ts:27:8:ConditionalExpression:true': {
    verdict: 'unobservable',
    reason: SHARED_RATE_STORE,
  },
  'server/http/rate-limit.ts:27:8:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason: SHARED_RATE_STORE,
  },
  'server/http/rate-limit.ts:27:8:LogicalOperator:shared || limit > 0': {
    verdict: 'unobservable',
    reason: SHARED_RATE_STORE,
  },
  'server/http/rate-limit.ts:27:18:ConditionalExpression:true': {
    verdict: 'unobservable',
    reason: SHARED_RATE_STORE,
  },
  'server/http/rate-limit.ts:27:18:EqualityOperator:limit >= 0': {
    verdict: 'unobservable',
    reason: SHARED_RATE_STORE,
  },
  'server/http/rate-limit.ts:27:18:EqualityOperator:limit <= 0': {
    verdict: 'unobservable',
    reason: SHARED_RATE_STORE,
  },
  'server/http/validator.ts:33:18:OptionalChaining:error.status': {
    verdict: 'equivalent',
    reason: 'an Express error handler is only called with an error, so `error` is never undefined here',
  },
  'server/routes/webhooks.ts:26:4:StringLiteral:""': {
    verdict: 'equivalent',
    reason: "a router mounted at /v1/webhooks matches the path '' as it matches '/': the list answers at the same URLs",
  },
  'server/routes/webhooks.ts:32:14:StringLiteral:""': {
    verdict: 'equivalent',
    reason: "a router mounted at /v1/webhooks matches the path '' as it matches '/': the create answers at the same URL",
  },
  'server/routes/webhooks.ts:38:4:CallExpression:;': {
    verdict: 'unspecified',
    reason:
      'a PUT to an unknown webhook with a refused URL then answers 400 url-not-allowed instead of 404: both refusals apply, and the document does not order them (with an allowed URL it is 404 either way)',
  },
  'server/store/sqlite/gate.ts:134:34:CallExpression:;': {
    verdict: 'unobservable',
    reason:
      'the requests of a transaction group the database failed as a whole are left waiting: only a database fault fails a group, which no request causes (the database-fault tests and npm run bench:database-faults do)',
  },
  'server/store/sqlite/statements.ts:65:2:ConditionalExpression:false': {
    verdict: 'equivalent',
    reason: 'JSON.parse(null) is null, and a column is never undefined',
  },
  "server/store/sqlite/store.ts:111:29:OptionalChaining:db.prepare('SELECT 1 AS ok').get().ok": {
    verdict: 'equivalent',
    reason: '`SELECT 1` always returns its row',
  },
  'server/store/sqlite/store.ts:111:40:StringLiteral:""': {
    verdict: 'unobservable',
    reason: 'the readiness ping fails, so /readyz (outside the document) says not ready; requests are not gated on it',
  },
  'server/store/sqlite/writer-lock.ts:51:11:ConditionalExpression:true': {
    verdict: 'unobservable',
    reason: WRITER_LOCK,
  },
  'server/store/sqlite/writer-lock.ts:51:11:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason: WRITER_LOCK,
  },
  'server/store/sqlite/writer-lock.ts:51:11:LogicalOperator:Number.isInteger(pid) || pid > 0': {
    verdict: 'unobservable',
    reason: WRITER_LOCK,
  },
  'server/store/sqlite/writer-lock.ts:51:36:ConditionalExpression:true': {
    verdict: 'unobservable',
    reason: WRITER_LOCK,
  },
  'server/store/sqlite/writer-lock.ts:51:36:EqualityOperator:pid >= 0': {
    verdict: 'unobservable',
    reason: WRITER_LOCK,
  },
  'server/store/sqlite/writer-lock.ts:51:36:EqualityOperator:pid <= 0': {
    verdict: 'unobservable',
    reason: WRITER_LOCK,
  },
  'server/webhooks/attempt.ts:44:27:ObjectLiteral:{}': {
    verdict: 'unspecified',
    reason:
      "the receiver's answer body read without its size limit and the attempt's signal: the kit's receivers answer with empty bodies, and what a receiver whose body never ends means to an attempt (answered or timed out) the document does not state",
  },
  'server/webhooks/dispatcher.ts:153:58:MethodExpression:Math.min(0, next - Date.now())': {
    verdict: 'unobservable',
    reason:
      'the dispatcher polls again at once instead of sleeping until the next due delivery: deliveries go at the same moments, only the CPU spent waiting changes',
  },
  'server/webhooks/dispatcher.ts:153:70:ArithmeticOperator:next + Date.now()': {
    verdict: 'unobservable',
    reason:
      "the dispatcher sleeps its longest idle wait (1 s) instead of until the next due delivery: a retry goes at most 1 s late, inside the schedule's \u00b120 % and the 1 s of network slack delivery-retry allows",
  },
  'server/webhooks/endpoints.ts:54:9:ConditionalExpression:true': {
    verdict: 'equivalent',
    reason:
      'an outcome without a status always carries its cause (a time-out, a refused or reset connection) and is classified on the line above',
  },
  'server/webhooks/ssrf.ts:67:4:ArrayDeclaration:[]': {
    verdict: 'unspecified',
    reason: REFUSED_ADDRESSES,
  },
  'server/webhooks/ssrf.ts:131:24:BlockStatement:{}': {
    verdict: 'unspecified',
    reason: LITERAL_REFUSALS_IN_DEVELOPMENT,
  },
  'server/webhooks/ssrf.ts:133:11:ConditionalExpression:false': {
    verdict: 'unspecified',
    reason: LITERAL_REFUSALS_IN_DEVELOPMENT,
  },
  'server/webhooks/ssrf.ts:133:22:StringLiteral:``': {
    verdict: 'unspecified',
    reason: LITERAL_REFUSALS_IN_DEVELOPMENT,
  },
  'packages/core/src/domain/cursor.ts:36:32:ConditionalExpression:false': {
    verdict: 'unobservable',
    reason:
      "the cursor's part count no longer tested: a cursor of fewer parts fails at its timestamp and id patterns and one of other JSON at its digest (400 as before); only a cursor built by hand from this server's encoding, three valid parts and more after them, passes, and cursors are opaque",
  },
  'packages/core/src/domain/etag.ts:31:53:ConditionalExpression:false': { verdict: 'equivalent', reason: EXPRESS_FRESH },
  'packages/core/src/domain/webhooks.ts:72:6:ConditionalExpression:false': { verdict: 'unspecified', reason: SAME_SECRET_AGAIN },
  'packages/core/src/domain/webhooks.ts:72:6:LogicalOperator:current.secret === null && current.secret === change.secret': {
    verdict: 'unspecified',
    reason: SAME_SECRET_AGAIN,
  },
  'packages/core/src/domain/webhooks.ts:72:33:ConditionalExpression:false': { verdict: 'unspecified', reason: SAME_SECRET_AGAIN },
  'packages/core/src/use-cases/collections.ts:69:12:StringLiteral:""': { verdict: 'unspecified', reason: DETAIL_TEXT },
  'packages/core/src/use-cases/finding-write.ts:36:39:ArrayDeclaration:["Stryker was here"]': {
    verdict: 'equivalent',
    reason:
      'a stray first entry in the list of compliance flips: it has neither before nor after, which are then equal, so no event comes of it',
  },
  'packages/core/src/use-cases/resources.ts:67:8:ConditionalExpression:true': {
    verdict: 'unobservable',
    reason:
      "errors other than refusals inside a write's transaction taken for refusals: a healthy database raises none in a run (test/multi-instance's database faults do)",
  },
  'server/http/idempotency.ts:11:70:StringLiteral:``': {
    verdict: 'equivalent',
    reason:
      "the path left out of an Idempotency-Key's fingerprint: keys are scoped to the API key (the document), and bodies of two create operations are never identical (their required members differ), so the body already tells them apart",
  },
  "server/http/problems.ts:49:15:MethodExpression:REQUEST_PART.test(mapped) ? mapped : malformed ? '/path' : ''": {
    verdict: 'gap',
    reason:
      "a refusal's pointer no longer cut to the schema's 512 characters: only an unknown member whose name makes the pointer longer shows it, and the kit sends none that long yet (what such a pointer should then be, cut or the body's, the document leaves open; only its length is stated)",
  },
  'server/store/sqlite/findings.ts:57:16:MethodExpression:FILTER_COLUMNS': { verdict: 'equivalent', reason: SEEK_COLUMNS },
  'server/store/sqlite/findings.ts:57:38:ArrowFunction:() => undefined': { verdict: 'equivalent', reason: SEEK_COLUMNS },
  'server/store/sqlite/findings.ts:57:50:ConditionalExpression:true': { verdict: 'equivalent', reason: SEEK_COLUMNS },
  'server/store/sqlite/findings.ts:57:50:ConditionalExpression:false': { verdict: 'equivalent', reason: SEEK_COLUMNS },
  'server/store/sqlite/findings.ts:57:50:EqualityOperator:filters[column] === undefined': { verdict: 'equivalent', reason: SEEK_COLUMNS },
  'server/store/sqlite/outbox.ts:106:76:StringLiteral:""': {
    verdict: 'unobservable',
    reason:
      "the word stored as a cancelled delivery's reason for a deleted webhook: the delivery is cancelled either way, and no client reads the reason",
  },
  'server/store/sqlite/outbox.ts:146:6:ConditionalExpression:true': { verdict: 'unobservable', reason: THREE_DAYS },
  'server/store/sqlite/outbox.ts:146:6:ConditionalExpression:false': { verdict: 'unobservable', reason: THREE_DAYS },
  "server/store/sqlite/outbox.ts:146:6:EqualityOperator:statement(db, `SELECT 1 FROM webhook_deliveries WHERE webhook_id = ? AND state = 'delivered' AND finished_at >= ? LIMIT 1`).get(webhookId, since) === undefined":
    { verdict: 'unobservable', reason: THREE_DAYS },
  'server/store/sqlite/outbox.ts:146:20:StringLiteral:``': { verdict: 'unobservable', reason: THREE_DAYS },
  'server/webhooks/outcomes.ts:67:71:LogicalOperator:delivery.firstAttemptAt && at': { verdict: 'unobservable', reason: THREE_DAYS },
  'server/store/sqlite/store.ts:95:19:ArrowFunction:() => undefined': { verdict: 'unobservable', reason: WAKE_ON_ENQUEUE },
  'server/store/sqlite/store.ts:100:22:ArrowFunction:() => undefined': { verdict: 'unobservable', reason: SHUTDOWN_ONLY },
  'server/store/sqlite/store.ts:100:46:ArrowFunction:() => undefined': { verdict: 'unobservable', reason: SHUTDOWN_ONLY },
  'server/store/sqlite/store.ts:104:23:ArrowFunction:() => undefined': { verdict: 'unobservable', reason: PRUNING },
  'server/store/sqlite/store.ts:104:40:ArrowFunction:() => undefined': { verdict: 'unobservable', reason: PRUNING },
  'server/store/sqlite/store.ts:104:62:ArrowFunction:() => undefined': { verdict: 'unobservable', reason: PRUNING },
  'server/store/sqlite/store.ts:105:20:ArrowFunction:() => undefined': { verdict: 'unobservable', reason: TESTS_ONLY_READS },
  'server/store/sqlite/store.ts:105:31:ArrowFunction:() => undefined': { verdict: 'unobservable', reason: TESTS_ONLY_READS },
  'server/store/sqlite/store.ts:106:24:ArrowFunction:() => undefined': { verdict: 'unobservable', reason: TESTS_ONLY_READS },
  'server/store/sqlite/store.ts:106:44:ArrowFunction:() => undefined': { verdict: 'unobservable', reason: TESTS_ONLY_READS },
  'server/store/sqlite/store.ts:107:25:ArrowFunction:() => undefined': { verdict: 'unobservable', reason: TESTS_ONLY_READS },
  'server/store/sqlite/store.ts:107:36:ArrowFunction:() => undefined': { verdict: 'unobservable', reason: TESTS_ONLY_READS },
  'server/webhooks/attempt.ts:80:47:ObjectLiteral:{}': { verdict: 'unobservable', reason: REFUSED_AT_SEND },
  'server/webhooks/attempt.ts:80:56:StringLiteral:""': { verdict: 'unobservable', reason: REFUSED_AT_SEND },
  'server/webhooks/attempt.ts:80:74:StringLiteral:``': { verdict: 'unobservable', reason: REFUSED_AT_SEND },
  'server/webhooks/dispatcher.ts:249:87:StringLiteral:""': { verdict: 'unobservable', reason: REQUEST_LOG },
  'server/webhooks/endpoints.ts:108:59:ArithmeticOperator:(isFailing ? 1 : -1) / state.inFlight': {
    verdict: 'gap',
    reason: FAILING_SLOTS_NEED_FAILING_LOAD,
  },
  'server/webhooks/endpoints.ts:109:101:CallExpression:;': {
    verdict: 'equivalent',
    reason: "an endpoint's state kept once it is back to full health instead of deleted: it then says what a fresh one would",
  },
  'server/webhooks/endpoints.ts:133:39:ArithmeticOperator:(this.#states.get(id)?.inFlight ?? 0) + (planned.get(id) ?? 0) - (elsewhere.get(id) ?? 0)':
    { verdict: 'unobservable', reason: ONE_INSTANCE },
  'server/webhooks/endpoints.ts:133:105:LogicalOperator:elsewhere.get(id) && 0': { verdict: 'unobservable', reason: ONE_INSTANCE },
  'server/webhooks/endpoints.ts:143:31:ConditionalExpression:false': { verdict: 'unobservable', reason: RESERVE_SIZE },
  'server/webhooks/endpoints.ts:143:31:EqualityOperator:free >= this.#reserve': { verdict: 'unobservable', reason: RESERVE_SIZE },
  'server/webhooks/endpoints.ts:143:31:EqualityOperator:free <= this.#reserve': { verdict: 'unobservable', reason: RESERVE_SIZE },
  'server/webhooks/outcomes.ts:69:10:ConditionalExpression:true': { verdict: 'unobservable', reason: REQUEST_LOG },
  'server/webhooks/outcomes.ts:69:10:ConditionalExpression:false': { verdict: 'unobservable', reason: REQUEST_LOG },
  'server/webhooks/outcomes.ts:69:38:ObjectLiteral:{}': { verdict: 'unobservable', reason: REQUEST_LOG },
  'server/webhooks/ssrf.ts:127:6:ConditionalExpression:false': {
    verdict: 'equivalent',
    reason: "the URL's scheme test: the request schema's pattern refuses every scheme but http and https before it",
  },
  'server/webhooks/ssrf.ts:127:6:ConditionalExpression:true': {
    verdict: 'equivalent',
    reason: "the URL's scheme test: the request schema's pattern refuses every scheme but http and https before it",
  },
  "server/webhooks/ssrf.ts:127:6:EqualityOperator:parsed.protocol === 'https:'": {
    verdict: 'equivalent',
    reason: "the URL's scheme test: the request schema's pattern refuses every scheme but http and https before it",
  },
  'server/webhooks/ssrf.ts:127:26:StringLiteral:""': {
    verdict: 'equivalent',
    reason: "the URL's scheme test: the request schema's pattern refuses every scheme but http and https before it",
  },
  "packages/core/src/domain/etag.ts:31:38:LogicalOperator:tag === '*' && tag.replace(/^W\\//, '') === current": {
    verdict: 'equivalent',
    reason: EXPRESS_FRESH,
  },
  'server/http/problems.ts:41:21:Regex:/\\/(body|query|path|headers)(\\/|$)/': {
    verdict: 'equivalent',
    reason: 'the request-part pattern unanchored: a mapped validator path starts with its part or is not a request part at all',
  },
  'server/webhooks/endpoints.ts:133:39:ArithmeticOperator:(this.#states.get(id)?.inFlight ?? 0) - (planned.get(id) ?? 0)': {
    verdict: 'unobservable',
    reason: ONE_INSTANCE,
  },
  'server/http/problems.ts:49:75:StringLiteral:"Stryker was here!"': {
    verdict: 'unobservable',
    reason:
      'the pointer of a validator error that names no request part and is no malformed path: no request a run sends gets one (response-audit fails any pointer outside { body, query, path, headers }, and runs pass)',
  },
  'server/store/sqlite/gate.ts:46:8:ConditionalExpression:true': {
    verdict: 'gap',
    reason:
      "two calls on the one SQLite connection at once (a transaction that awaits, beside another): only writes concurrent with the dispatcher's claims and records contend for it, and the kit sends its requests one at a time",
  },
  'server/store/sqlite/gate.ts:55:14:CallExpression:;': {
    verdict: 'gap',
    reason:
      "two calls on the one SQLite connection at once (a transaction that awaits, beside another): only writes concurrent with the dispatcher's claims and records contend for it, and the kit sends its requests one at a time",
  },
  'server/webhooks/attempt.ts:84:27:OptionalChaining:err.cause.code': {
    verdict: 'unobservable',
    reason:
      "an attempt's error with neither a code nor a cause: undici's request errors carry a code, and the attempt's own time-out is told apart before",
  },
};
