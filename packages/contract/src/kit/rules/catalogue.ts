// The rule catalogue: every sentence of every description in the document (common/sentences.ts
// says what a sentence is), each a rule (judged by the checks whose definition lists its id), a
// rule that cannot be observed from outside (with the reason), or informative. rules.test.ts fails
// when the document and this list disagree; `npm run contract:rules` prints what to add or remove.
import type { CatalogueEntry } from './rule.ts';

export const CATALOGUE = [
  // /info/description
  {
    id: 'api.1',
    at: '/info/description',
    text: 'The SecMon API manages the **policies** devices are checked against, the **findings** raised when they are not met, and the **webhooks** that receive signed notifications when something happens.',
    informative: true,
  },
  {
    id: 'api.2',
    at: '/info/description',
    text: 'Everything here is JSON over HTTPS.',
    unobservable:
      "the transport is the deployment's choice (a local target is plain HTTP); the JSON bodies are what every response check validates",
  },
  {
    id: 'authentication.1',
    at: '/info/description',
    text: 'Send an API key as a bearer token: `Authorization: Bearer <api key>`.',
  },
  {
    id: 'authentication.2',
    at: '/info/description',
    text: 'Keys carry the scopes `read` (all `GET` operations) and/or `write` (`POST`, `PUT`, `DELETE`).',
  },
  {
    id: 'authentication.3',
    at: '/info/description',
    text: 'A missing or unknown key gets `401` with `WWW-Authenticate: Bearer`; a key without the needed scope gets `403`.',
  },
  {
    id: 'authentication.4',
    at: '/info/description',
    text: 'Webhook secrets and API keys are never returned and never logged.',
  },
  {
    id: 'errors.1',
    at: '/info/description',
    text: 'Every error is an [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem document with `Content-Type: application/problem+json` and the fields `type`, `title`, `status`, `detail` and `instance`.',
  },
  {
    id: 'errors.2',
    at: '/info/description',
    text: 'Validation problems add `errors`, a list of `{ pointer, message }` naming each invalid part of the request.',
  },
  { id: 'errors.3', at: '/info/description', text: 'Branch on `type`, which is stable:', informative: true },
  {
    id: 'errors.4',
    at: '/info/description',
    text: '`malformed-request` | 400 | The request is not valid HTTP (refused before it reaches an operation).',
  },
  {
    id: 'errors.5',
    at: '/info/description',
    text: '`validation-error` | 400 | A parameter or body field breaks the schema (including unknown fields and unknown query parameters), or a referenced resource does not exist.',
  },
  { id: 'errors.6', at: '/info/description', text: '`malformed-json` | 400 | The body is not valid JSON.' },
  {
    id: 'errors.7',
    at: '/info/description',
    text: '`url-not-allowed` | 400 | A webhook URL targets a scheme or address the service refuses.',
  },
  { id: 'errors.8', at: '/info/description', text: '`unauthorized` | 401 | No API key, or an unknown one.' },
  {
    id: 'errors.9',
    at: '/info/description',
    text: '`forbidden` | 403 | The key lacks the `read` or `write` scope.',
  },
  {
    id: 'errors.10',
    at: '/info/description',
    text: '`not-found` | 404 | No resource has this id, or no such route.',
  },
  {
    id: 'errors.11',
    at: '/info/description',
    text: '`method-not-allowed` | 405 | The path exists but not with this method.',
  },
  {
    id: 'errors.12',
    at: '/info/description',
    text: "`request-timeout` | 408 | The request's header fields took over 10 s, or the whole request over 30 s, to arrive (refused before it reaches an operation; the connection is closed).",
  },
  {
    id: 'errors.13',
    at: '/info/description',
    text: '`invalid-transition` | 409 | A finding status change its life cycle does not allow.',
  },
  {
    id: 'errors.14',
    at: '/info/description',
    text: '`idempotency-key-reused` | 409 | An `Idempotency-Key` reused with a different body.',
  },
  {
    id: 'errors.15',
    at: '/info/description',
    text: '`policy-in-use` | 409 | Deleting a policy that open or in-progress findings reference.',
  },
  {
    id: 'errors.16',
    at: '/info/description',
    text: '`precondition-failed` | 412 | `If-Match` does not match the current `ETag`.',
  },
  { id: 'errors.17', at: '/info/description', text: '`payload-too-large` | 413 | The body is over 1 MiB.' },
  {
    id: 'errors.18',
    at: '/info/description',
    text: '`unsupported-media-type` | 415 | The body is not `application/json`.',
  },
  {
    id: 'errors.20',
    at: '/info/description',
    text: "`headers-too-large` | 431 | The request's header fields are over 16 KiB in all (refused before it reaches an operation).",
  },
  {
    id: 'errors.21',
    at: '/info/description',
    text: '`internal-error` | 500 | A fault in the service. Safe to retry with backoff.',
    unobservable: 'a correct request cannot make a correct service fail; any 500 the kit meets fails the check that met it',
  },
  {
    id: 'pagination.1',
    at: '/info/description',
    text: 'List operations return `{ "data": [...], "next_cursor": "..." }`, newest first by (`created_at`, `id`).',
  },
  {
    id: 'pagination.2',
    at: '/info/description',
    text: '`limit` is 1 to 100 (default 20).',
  },
  { id: 'pagination.3', at: '/info/description', text: 'Pass `next_cursor` back as `cursor` until it is `null`.' },
  {
    id: 'pagination.4',
    at: '/info/description',
    text: 'Cursors are opaque and bound to the filters they were issued with; a cursor that is malformed or used with other filters gets `400`.',
  },
  {
    id: 'idempotency-and-concurrency.1',
    at: '/info/description',
    text: '`POST` accepts an `Idempotency-Key` header: a retry with the same key and the same body within 24 hours replays the first response instead of creating a duplicate, marked with `Idempotent-Replayed: true`; the same key with another body gets `409`.',
  },
  {
    id: 'idempotency-and-concurrency.2',
    at: '/info/description',
    text: 'Every resource has a strong `ETag`.',
  },
  {
    id: 'idempotency-and-concurrency.3',
    at: '/info/description',
    text: 'Send it as `If-Match` on `PUT` and `DELETE` to refuse lost updates (`412`), and as `If-None-Match` on `GET` to get `304`.',
  },
  {
    id: 'idempotency-and-concurrency.4',
    at: '/info/description',
    text: "`PUT` replaces every writable field; what you omit takes its default (a webhook's `secret` is the one exception: omitted means unchanged).",
  },
  {
    id: 'idempotency-and-concurrency.5',
    at: '/info/description',
    text: 'To change one field, read the resource, copy its writable fields into the body, change the one you mean, and send the `ETag` you read as `If-Match`: the fields you did not mean to change keep their values, and a change someone made in between is refused with `412` instead of overwritten.',
  },
  {
    id: 'rate-limits.1',
    at: '/info/description',
    text: 'Each API key has a quota per window (on the reference server 120 requests per 60 seconds in production mode, 10,000 in development mode).',
    unobservable: "the quota is the service's configuration; the kit reads it from RateLimit-Policy instead",
  },
  {
    id: 'rate-limits.2',
    at: '/info/description',
    text: 'Every authenticated response carries `RateLimit-Policy` and `RateLimit` (IETF `draft-ietf-httpapi-ratelimit-headers`, draft 8), always: a key without a quota gets the policy named `unlimited` with `q=4294967295`.',
  },
  { id: 'rate-limits.3', at: '/info/description', text: 'Pace yourself by them: when `r` reaches 0, wait `t` seconds.', informative: true },
  { id: 'rate-limits.4', at: '/info/description', text: 'Over quota: `429` with `Retry-After`.' },
  {
    id: 'browser-clients-cors.1',
    at: '/info/description',
    text: 'The API answers cross-origin requests from the origins the service allows (on the reference server: any `http://localhost:<port>` and `http://127.0.0.1:<port>` in development mode, and in production only the origins it is configured with).',
  },
  { id: 'browser-clients-cors.2', at: '/info/description', text: 'A preflight needs no API key and costs no quota.' },
  {
    id: 'browser-clients-cors.3',
    at: '/info/description',
    text: 'Browsers may send `Authorization`, `Content-Type`, `If-Match`, `If-None-Match` and `Idempotency-Key`, and may read `ETag`, `Location`, `RateLimit`, `RateLimit-Policy`, `Retry-After` and `X-Request-Id`.',
  },
  {
    id: 'browser-clients-cors.4',
    at: '/info/description',
    text: 'Keys go in `Authorization`, never in cookies: requests are not credentialed.',
  },
  { id: 'limits.1', at: '/info/description', text: 'Request bodies up to 1 MiB.' },
  {
    id: 'limits.2',
    at: '/info/description',
    text: 'Every string, list and number has documented bounds; identifiers are a type prefix (`pol_`, `fnd_`, `whk_`, `dev_`, `scn_`) and 26 characters of lowercase Crockford base32 (TypeID form, time-sortable).',
  },
  { id: 'limits.3', at: '/info/description', text: 'Timestamps are RFC 3339 in UTC with `Z`.' },
  {
    id: 'webhooks.1',
    at: '/info/description',
    text: 'A webhook subscribes an `http(s)` URL to event types.',
  },
  {
    id: 'webhooks.2',
    at: '/info/description',
    text: 'When an event happens, the service `POST`s `{ "event": <type>, "timestamp": <UTC>, "data": {...} }` with `Content-Type: application/json` to every enabled webhook subscribed to that type.',
  },
  {
    id: 'webhooks.3',
    at: '/info/description',
    text: 'The six event types and their payloads are listed under **Events**.',
    informative: true,
  },
  {
    id: 'webhooks.4',
    at: '/info/description',
    text: "A person can configure webhooks in the service's settings under Integrations (on the reference server: [/settings/integrations](/settings/integrations)) as well as through the webhooks endpoints.",
    unobservable: "the settings page is the service's own user interface, not part of the /v1 contract",
  },
  {
    id: 'delivery-headers.1',
    at: '/info/description',
    text: '`X-Service-Signature` | `sha256=<hex HMAC-SHA256 of the raw body>`; only when the webhook has a secret',
  },
  { id: 'delivery-headers.2', at: '/info/description', text: '`X-Service-Event` | the event type' },
  {
    id: 'delivery-headers.3',
    at: '/info/description',
    text: '`X-Service-Delivery` | a UUID per event and webhook, identical on every retry',
  },
  { id: 'delivery-headers.4', at: '/info/description', text: "`X-Service-Webhook-Id` | the webhook's id" },
  { id: 'delivery-headers.5', at: '/info/description', text: '`User-Agent` | `SecMon-Webhooks/<version>`' },
  {
    id: 'verifying-signatures.2',
    at: '/info/description',
    text: "The scheme is the one of GitHub's `X-Hub-Signature-256`, so existing verification libraries work.",
    informative: true,
  },
  {
    id: 'verifying-signatures.4',
    at: '/info/description',
    text: '```json {"event":"finding.created","timestamp":"2026-11-02T09:30:00Z","data":{"finding_id":"fnd_01jbz3k7q2w9x8v6t5r4p3n2m1","severity":"high","title":"SSH root login enabled","device_id":"dev_01jbz2m4n6p8q0r2s4t6v8w0x2","policy_id":"pol_01jbz1a2b3c4d5e6f7g8h9j0k1"}} ```',
    informative: true,
  },
  {
    id: 'verifying-signatures.6',
    at: '/info/description',
    text: "In Node.js: `createHmac('sha256', secret).update(rawBody).digest('hex')`.",
    informative: true,
  },
  {
    id: 'delivery-and-retries.1',
    at: '/info/description',
    text: 'A delivery succeeds when the receiver answers `2xx` within 10 seconds.',
  },
  {
    id: 'delivery-and-retries.2',
    at: '/info/description',
    text: 'Redirects are never followed (a `3xx` is a failure).',
  },
  {
    id: 'delivery-and-retries.3',
    at: '/info/description',
    text: '`410 Gone` disables the webhook at once (`disabled_reason: endpoint_gone`).',
  },
  {
    id: 'delivery-and-retries.4',
    at: '/info/description',
    text: 'Anything else (other statuses, time-outs, refused or reset connections) is retried after waits of about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, each counted from the attempt before (ten attempts over about three days), each with ±20 % jitter; a `Retry-After` from the receiver is honoured when it asks for a longer wait, up to one hour.',
  },
  {
    id: 'delivery-and-retries.5',
    at: '/info/description',
    text: 'When a delivery has used all its retries and no delivery to the webhook succeeded during those three days, the webhook is disabled (`disabled_reason: failing`); re-enable it with `PUT` once the receiver is fixed.',
    unobservable: 'needs three days of failing deliveries',
  },
  {
    id: 'slow-and-failing-receivers.1',
    at: '/info/description',
    text: "Each webhook gets its own share of the service's delivery slots, so a receiver that is slow or does not answer delays only its own deliveries.",
  },
  {
    id: 'slow-and-failing-receivers.2',
    at: '/info/description',
    text: 'Every webhook with something due gets a slot before any webhook gets a second, and at most 8 attempts are open to one webhook at a time.',
  },
  {
    id: 'slow-and-failing-receivers.3',
    at: '/info/description',
    text: 'An attempt that times out, cannot connect, or gets `5xx` or `429` halves that number (down to one); each answered attempt raises it by one again.',
    unobservable: 'the adaptive concurrency is internal; judging it needs a sustained load the kit does not put on a target',
  },
  {
    id: 'slow-and-failing-receivers.4',
    at: '/info/description',
    text: "After 3 failures in a row the webhook's circuit opens: its failed deliveries are retried one at a time on the schedule below, and new ones wait (pending, not counted as attempts) until a probe — a retry, or a new delivery after a pause of 5 s that doubles with each further failure, up to about 5 minutes — is answered; then sending resumes one at a time and ramps up.",
  },
  {
    id: 'slow-and-failing-receivers.5',
    at: '/info/description',
    text: 'Nothing is dropped while the circuit is open.',
    unobservable: "needs the circuit open for minutes; measured by the reference server's own tests",
  },
  {
    id: 'slow-and-failing-receivers.6',
    at: '/info/description',
    text: 'An event goes to the webhooks subscribed to its type when it happens; a webhook created later does not receive earlier events.',
  },
  {
    id: 'slow-and-failing-receivers.7',
    at: '/info/description',
    text: 'Deliveries still pending when their webhook is disabled (by you or by the service) or deleted are dropped, and re-enabling does not replay them.',
    unobservable: 'proving a dropped delivery never arrives needs waiting out its whole retry schedule',
  },
  { id: 'slow-and-failing-receivers.8', at: '/info/description', text: 'Event bodies are at most 64 KiB.' },
  {
    id: 'slow-and-failing-receivers.9',
    at: '/info/description',
    text: 'A retry sends the byte-identical body with the same `X-Service-Delivery`, so the signature and the delivery id both work as idempotency keys.',
  },
  {
    id: 'slow-and-failing-receivers.10',
    at: '/info/description',
    text: 'Delivery is **at least once**: events are written in the same transaction as the change that caused them and survive a crash or restart, so a receiver may see a delivery twice.',
    unobservable: 'durability needs the target crashed or restarted mid-delivery, which the kit cannot do from outside',
  },
  {
    id: 'slow-and-failing-receivers.11',
    at: '/info/description',
    text: "Ordering is **not** guaranteed; order by the body's `timestamp`.",
    informative: true,
  },
  { id: 'versioning.1', at: '/info/description', text: 'The major version is in the path (`/v1`).' },
  {
    id: 'authentication.5',
    at: '/info/description',
    text: 'Failed authentication is counted per client address: see *Rate limits*.',
    informative: true,
  },
  {
    id: 'errors.19',
    at: '/info/description',
    text: "`rate-limited` | 429 | The key's quota is used up, or too many requests with a missing or unknown key came from the client's address; see `Retry-After`.",
  },
  {
    id: 'errors.22',
    at: '/info/description',
    text: "`service-unavailable` | 503 | The service cannot reach its database for a moment (restarting, not answering within the service's time limit, refusing connections); see `Retry-After`. A `POST` answered `503` may have been applied: retry it with the same `Idempotency-Key`.",
    unobservable:
      'needs the target unable to reach its database; the response audit judges any 503 that occurs (a catalogue type, Retry-After)',
  },
  {
    id: 'errors.23',
    at: '/info/description',
    text: '`storage-full` | 503 | The service has no room to store the change (its database or disk is full); see `Retry-After`.',
    unobservable: 'needs the target out of storage; the response audit judges any 503 that occurs (a catalogue type, Retry-After)',
  },
  {
    id: 'rate-limits.5',
    at: '/info/description',
    text: 'Failed authentication (no key, or an unknown one) is also limited, per client address, so keys cannot be guessed: after 30 failures within 60 seconds from one address (on the reference server in production mode; 1,000 in development mode), further requests from it that carry no valid key get `429` (`rate-limited`) with `Retry-After` instead of `401`, whatever key they carry, until the window ends.',
  },
  {
    id: 'rate-limits.6',
    at: '/info/description',
    text: 'Their `RateLimit-Policy` names the address\'s policy (`"failed-auth-30-in-1min"; q=30; w=60`).',
  },
  {
    id: 'rate-limits.7',
    at: '/info/description',
    text: 'Requests with a valid key from the same address are not affected.',
  },
  {
    id: 'delivery-headers.6',
    at: '/info/description',
    text: '`webhook-id` | the `X-Service-Delivery` value ([Standard Webhooks](https://www.standardwebhooks.com/))',
  },
  {
    id: 'delivery-headers.7',
    at: '/info/description',
    text: '`webhook-timestamp` | the time of this attempt, in Unix seconds',
  },
  {
    id: 'delivery-headers.8',
    at: '/info/description',
    text: '`webhook-signature` | `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}">`, one space-separated entry per valid secret, newest first; only when the webhook has a secret',
  },
  {
    id: 'verifying-signatures.1',
    at: '/info/description',
    text: "Every signed delivery carries two signatures, both HMAC-SHA256 keyed with the webhook secret's UTF-8 bytes and both computed over the **exact bytes of the request body** as received (before any JSON parsing, which would re-serialise it).",
  },
  {
    id: 'verifying-signatures.3',
    at: '/info/description',
    text: 'Verify `webhook-signature`: it also covers the delivery id and the time, so a captured delivery cannot be replayed later.',
    informative: true,
  },
  {
    id: 'verifying-signatures.5',
    at: '/info/description',
    text: '**`webhook-signature` (recommended).** Concatenate `webhook-id`, `.`, `webhook-timestamp`, `.` and the raw body; compute the HMAC-SHA256 of that, base64-encode it, prefix `v1,`, and compare it in constant time with each space-separated entry of `webhook-signature`: one match is enough.',
  },
  {
    id: 'verifying-signatures.7',
    at: '/info/description',
    text: 'Refuse the delivery when `webhook-timestamp` is more than 5 minutes away from your clock (either way).',
    informative: true,
  },
  {
    id: 'verifying-signatures.8',
    at: '/info/description',
    text: "This is the [Standard Webhooks](https://www.standardwebhooks.com/) scheme: its `standardwebhooks` libraries verify it when given the base64 encoding of the secret's UTF-8 bytes as the key (they decode the key from base64, while the service uses the secret's bytes as they are).",
    informative: true,
  },
  {
    id: 'verifying-signatures.9',
    at: '/info/description',
    text: 'Worked example, with the secret `whsec_2f6c1e8a9b7d4c3e5f1a0b9c` (its UTF-8 bytes in base64: `d2hzZWNfMmY2YzFlOGE5YjdkNGMzZTVmMWEwYjlj`), `webhook-id: 9b2f1c7e-3d4a-4f5b-8c6d-7e8f9a0b1c2d`, `webhook-timestamp: 1793611800` (2026-11-02T09:30:00Z) and this body (no trailing newline):',
    informative: true,
  },
  {
    id: 'verifying-signatures.10',
    at: '/info/description',
    text: 'the header is `webhook-signature: v1,TA7OobTuM49RToWuU3r9cHX2XgvvV6ScDTAi/954EaA=`.',
    informative: true,
  },
  {
    id: 'verifying-signatures.11',
    at: '/info/description',
    text: "In Node.js: `createHmac('sha256', secret).update(id + '.' + timestamp + '.').update(rawBody).digest('base64')`.",
    informative: true,
  },
  {
    id: 'verifying-signatures.12',
    at: '/info/description',
    text: '**`X-Service-Signature`.** Hex-encode the HMAC-SHA256 of the raw body alone in lowercase, prefix `sha256=`, and compare it with `X-Service-Signature` in constant time.',
  },
  {
    id: 'verifying-signatures.13',
    at: '/info/description',
    text: 'It carries no time: a delivery verified this way alone could be a replay.',
    informative: true,
  },
  {
    id: 'verifying-signatures.14',
    at: '/info/description',
    text: 'For the body above the header is `X-Service-Signature: sha256=b7b745782abc37fa2f4b7037178649216f355c165f58a84c4d06e60b7f8d1f0f`.',
    informative: true,
  },
  {
    id: 'verifying-signatures.15',
    at: '/info/description',
    text: 'A webhook without a secret gets neither signature header (`webhook-id` and `webhook-timestamp` are still sent); treat such deliveries as unauthenticated.',
  },
  {
    id: 'verifying-signatures.16',
    at: '/info/description',
    text: 'The client package `secmon-api` verifies either signature with one or more secrets and returns the typed event (`verifyWebhook`), and `npx secmon-contract receiver --url <your receiver>` checks a receiver: it sends each event type, a redelivery, and deliveries that must be refused (unsigned, wrongly signed, changed after signing, outside the 5-minute tolerance, signed with another secret).',
    informative: true,
  },
  {
    id: 'rotating-a-secret.1',
    at: '/info/description',
    text: "When a `PUT` replaces a webhook's secret, the secret it replaced stays valid for 24 hours: deliveries sent during that time carry one `webhook-signature` entry per secret (the new one first), so a receiver verifies with either while you deploy the new one.",
  },
  {
    id: 'rotating-a-secret.2',
    at: '/info/description',
    text: '`X-Service-Signature` uses the new secret only.',
  },
  {
    id: 'rotating-a-secret.3',
    at: '/info/description',
    text: 'At most two secrets are valid at once: replacing the secret again within the 24 hours ends the overlap of the one replaced first.',
  },
  {
    id: 'rotating-a-secret.4',
    at: '/info/description',
    text: 'Removing the secret (`null`) stops signing at once, with either secret.',
  },
  {
    id: 'rotating-a-secret.5',
    at: '/info/description',
    text: 'Neither secret is ever returned or logged.',
  },
  {
    id: 'versioning.2',
    at: '/info/description',
    text: 'Within `v1` the API only changes in backward-compatible ways, and these are all of them:',
    unobservable: 'a promise about later versions: one run sees one version (the document side is npm run check:breaking)',
  },
  {
    id: 'versioning.3',
    at: '/info/description',
    text: 'new operations, new optional request fields, parameters and headers | nothing',
    informative: true,
  },
  {
    id: 'versioning.4',
    at: '/info/description',
    text: 'new fields in response bodies and event bodies | ignore fields you do not know; never refuse a body for them',
    informative: true,
  },
  {
    id: 'versioning.5',
    at: '/info/description',
    text: 'new values in an enumeration the service sends (a response or event field such as `severity`, `status`, `platform` or a webhook\'s `events`) | treat a value you do not know as "other" (a `default` branch); never refuse a body for it',
    informative: true,
  },
  {
    id: 'versioning.6',
    at: '/info/description',
    text: 'new values in an enumeration you send | nothing: the values you send keep their meaning',
    informative: true,
  },
  {
    id: 'versioning.7',
    at: '/info/description',
    text: 'new event types | nothing: an event type is sent only to webhooks subscribed to it',
    informative: true,
  },
  {
    id: 'versioning.8',
    at: '/info/description',
    text: 'new problem types | branch on `status` when you do not know the `type`',
    informative: true,
  },
  {
    id: 'versioning.9',
    at: '/info/description',
    text: 'new statuses of an operation | handle a status you do not know by its class (`2xx`, `4xx`, `5xx`)',
    informative: true,
  },
  {
    id: 'versioning.10',
    at: '/info/description',
    text: 'new response headers and delivery headers | ignore headers you do not know',
    informative: true,
  },
  {
    id: 'versioning.11',
    at: '/info/description',
    text: 'new media types of a request or response body | nothing: a response comes in another media type only when your `Accept` asks for it',
    informative: true,
  },
  {
    id: 'versioning.12',
    at: '/info/description',
    text: 'Everything else needs `/v2`: removing or renaming anything (an operation, a field, a parameter, or a value of any enumeration, including one only the service sends), adding a required request field, narrowing a type, bound or pattern, widening what a response or event field may hold beyond a new enumeration value (another type, a looser bound, a new `oneOf` member), or changing the signature scheme.',
    unobservable: 'a promise about later versions: one run sees one version (the document side is npm run check:breaking)',
  },
  {
    id: 'versioning.13',
    at: '/info/description',
    text: '`v1` then stays available for at least 12 months.',
    unobservable: 'a promise over time: one run sees one moment',
  },
  {
    id: 'versioning.14',
    at: '/info/description',
    text: 'An implementation of this exact version sends only the fields and values this document lists; the contract kit reports anything else as a violation (use `--allow-newer-fields` to check a service that is ahead of this document).',
  },
  {
    id: 'test-support-not-part-of-the-v1-contract.1',
    at: '/info/description',
    text: 'Devices connecting and disconnecting and scans completing have no operation, so tests need another way to make an implementation send `device.connected`, `device.disconnected` and `scan.completed`.',
    informative: true,
  },
  {
    id: 'test-support-not-part-of-the-v1-contract.2',
    at: '/info/description',
    text: 'The contract kit (`secmon-contract`) raises them through `POST /_simulator/events`, a test-support route outside `/v1` that an implementation may offer (the reference server does in development mode, never in production): a key with the `write` scope, `Content-Type: application/json` and the body `{"event": "<type>", "data": {<fields to override>}, "timestamp": "<UTC>", "webhook_id": "<id>"}`, where only `event` is required.',
    informative: true,
  },
  {
    id: 'test-support-not-part-of-the-v1-contract.3',
    at: '/info/description',
    text: 'The implementation fills in realistic data, applies the overrides, and answers `202` with the event it sent.',
  },
  {
    id: 'test-support-not-part-of-the-v1-contract.4',
    at: '/info/description',
    text: 'With `webhook_id` it sends the event to that webhook only, and refuses with `400` a webhook that is not enabled or not subscribed to the type; without it, to every subscriber.',
  },
  {
    id: 'test-support-not-part-of-the-v1-contract.5',
    at: '/info/description',
    text: 'An implementation that raises events another way gives the kit a command instead (`--trigger-command`).',
    informative: true,
  },
  {
    id: 'test-support-not-part-of-the-v1-contract.6',
    at: '/info/description',
    text: 'This route is not part of the `/v1` contract: no client may depend on it, and an implementation without it is not wrong; the kit then needs a trigger command, or the three events declared out of scope.',
    informative: true,
  },
  // /servers/0/description
  // /servers/1/description
  // /tags/0/description
  {
    id: 'tags-0.1',
    at: '/tags/0/description',
    text: 'Security policies that devices are checked against, with derived compliance status.',
    informative: true,
  },
  // /tags/1/description
  {
    id: 'tags-1.1',
    at: '/tags/1/description',
    text: 'Issues detected on devices, with a life cycle from `open` to `resolved` or `suppressed`.',
    informative: true,
  },
  // /tags/2/description
  { id: 'tags-2.1', at: '/tags/2/description', text: 'Subscriptions that receive signed event notifications.', informative: true },
  // /tags/3/description
  { id: 'tags-3.1', at: '/tags/3/description', text: 'The notifications the service `POST`s to webhook subscribers.', informative: true },
  {
    id: 'tags-3.2',
    at: '/tags/3/description',
    text: 'Each one is described as the request your receiver gets, with its headers, body and the answers the service expects.',
    informative: true,
  },
  // /paths/~1v1~1policies/get/description
  {
    id: 'listPolicies.1',
    at: '/paths/~1v1~1policies/get/description',
    text: 'Returns policies newest first, ordered by (`created_at`, `id`) descending, one page at a time.',
  },
  {
    id: 'listPolicies.2',
    at: '/paths/~1v1~1policies/get/description',
    text: 'Follow `next_cursor` until it is `null` to walk every page; the order is stable, so a walk sees no duplicates and skips nothing that existed when it started.',
  },
  {
    id: 'listPolicies.3',
    at: '/paths/~1v1~1policies/get/description',
    text: 'Filter with `enabled` and `severity`.',
  },
  {
    id: 'listPolicies.4',
    at: '/paths/~1v1~1policies/get/description',
    text: 'Unknown query parameters are refused with `400`.',
  },
  {
    id: 'listPolicies.5',
    at: '/paths/~1v1~1policies/get/description',
    text: 'Needs the `read` scope.',
  },
  // /paths/~1v1~1policies/get/responses/200/description
  { id: 'listPolicies.6', at: '/paths/~1v1~1policies/get/responses/200/description', text: 'One page of policies.', informative: true },
  // /paths/~1v1~1policies/post/description
  { id: 'createPolicy.1', at: '/paths/~1v1~1policies/post/description', text: 'Creates a policy.' },
  {
    id: 'createPolicy.2',
    at: '/paths/~1v1~1policies/post/description',
    text: 'It starts at `version` 1 and `compliant` (no finding references it yet).',
  },
  {
    id: 'createPolicy.3',
    at: '/paths/~1v1~1policies/post/description',
    text: 'Answers `201` with the policy, its `Location` and its `ETag`.',
  },
  {
    id: 'createPolicy.4',
    at: '/paths/~1v1~1policies/post/description',
    text: 'Send an `Idempotency-Key` to make retries safe.',
  },
  { id: 'createPolicy.5', at: '/paths/~1v1~1policies/post/description', text: 'Needs the `write` scope.' },
  // /paths/~1v1~1policies/post/responses/201/description
  { id: 'createPolicy.6', at: '/paths/~1v1~1policies/post/responses/201/description', text: 'The policy was created.', informative: true },
  // /paths/~1v1~1policies~1{id}/get/description
  {
    id: 'getPolicy.1',
    at: '/paths/~1v1~1policies~1{id}/get/description',
    text: 'Returns one policy with its `ETag`.',
  },
  {
    id: 'getPolicy.2',
    at: '/paths/~1v1~1policies~1{id}/get/description',
    text: 'With `If-None-Match` set to the current `ETag`, answers `304` and no body.',
  },
  { id: 'getPolicy.3', at: '/paths/~1v1~1policies~1{id}/get/description', text: 'Needs the `read` scope.' },
  // /paths/~1v1~1policies~1{id}/get/responses/200/description
  { id: 'getPolicy.4', at: '/paths/~1v1~1policies~1{id}/get/responses/200/description', text: 'The policy.', informative: true },
  // /paths/~1v1~1policies~1{id}/put/description
  {
    id: 'updatePolicy.1',
    at: '/paths/~1v1~1policies~1{id}/put/description',
    text: 'Replaces every writable field of the policy; a field you omit takes its default (for example `enabled` becomes `true` and `frameworks` empty).',
  },
  {
    id: 'updatePolicy.2',
    at: '/paths/~1v1~1policies~1{id}/put/description',
    text: '`version` increases by one and a new `ETag` is returned.',
  },
  {
    id: 'updatePolicy.3',
    at: '/paths/~1v1~1policies~1{id}/put/description',
    text: 'To change one field, read the policy, copy its writable fields into the body, change that field, and send the `ETag` you read as `If-Match` (`412` if someone changed it after your read).',
  },
  {
    id: 'updatePolicy.4',
    at: '/paths/~1v1~1policies~1{id}/put/description',
    text: 'Needs the `write` scope.',
  },
  // /paths/~1v1~1policies~1{id}/put/responses/200/description
  {
    id: 'updatePolicy.5',
    at: '/paths/~1v1~1policies~1{id}/put/responses/200/description',
    text: 'The policy after the update.',
    informative: true,
  },
  // /paths/~1v1~1policies~1{id}/delete/description
  { id: 'deletePolicy.1', at: '/paths/~1v1~1policies~1{id}/delete/description', text: 'Deletes the policy.' },
  {
    id: 'deletePolicy.2',
    at: '/paths/~1v1~1policies~1{id}/delete/description',
    text: 'Refused with `409` (`policy-in-use`) while any `open` or `in_progress` finding references it; resolved and suppressed findings that reference it keep their `policy_id` set to `null`.',
  },
  { id: 'deletePolicy.3', at: '/paths/~1v1~1policies~1{id}/delete/description', text: 'Honours `If-Match`.' },
  {
    id: 'deletePolicy.4',
    at: '/paths/~1v1~1policies~1{id}/delete/description',
    text: 'Needs the `write` scope.',
  },
  // /paths/~1v1~1policies~1{id}/delete/responses/204/description
  {
    id: 'deletePolicy.5',
    at: '/paths/~1v1~1policies~1{id}/delete/responses/204/description',
    text: 'The policy was deleted.',
    informative: true,
  },
  // /paths/~1v1~1policies~1{id}/delete/responses/409/description
  {
    id: 'deletePolicy.6',
    at: '/paths/~1v1~1policies~1{id}/delete/responses/409/description',
    text: 'Open or in-progress findings still reference the policy.',
  },
  // /paths/~1v1~1findings/get/description
  {
    id: 'listFindings.1',
    at: '/paths/~1v1~1findings/get/description',
    text: 'Returns findings newest first, ordered by (`created_at`, `id`) descending, one page at a time.',
  },
  {
    id: 'listFindings.2',
    at: '/paths/~1v1~1findings/get/description',
    text: 'Follow `next_cursor` until it is `null` to walk every page; the order is stable, so a walk sees no duplicates and skips nothing that existed when it started.',
  },
  {
    id: 'listFindings.3',
    at: '/paths/~1v1~1findings/get/description',
    text: 'Filter with `status`, `severity`, `device_id` and `policy_id` (filters combine with AND).',
  },
  {
    id: 'listFindings.4',
    at: '/paths/~1v1~1findings/get/description',
    text: 'Unknown query parameters are refused with `400`.',
  },
  { id: 'listFindings.5', at: '/paths/~1v1~1findings/get/description', text: 'Needs the `read` scope.' },
  // /paths/~1v1~1findings/get/parameters/2/description
  {
    id: 'listFindings.6',
    at: '/paths/~1v1~1findings/get/parameters/2/description',
    text: 'Only findings in this status.',
  },
  // /paths/~1v1~1findings/get/parameters/4/description
  {
    id: 'listFindings.7',
    at: '/paths/~1v1~1findings/get/parameters/4/description',
    text: 'Only findings on this device.',
  },
  // /paths/~1v1~1findings/get/parameters/5/description
  {
    id: 'listFindings.8',
    at: '/paths/~1v1~1findings/get/parameters/5/description',
    text: 'Only findings that reference this policy.',
  },
  // /paths/~1v1~1findings/get/responses/200/description
  { id: 'listFindings.9', at: '/paths/~1v1~1findings/get/responses/200/description', text: 'One page of findings.', informative: true },
  // /paths/~1v1~1findings/post/description
  {
    id: 'createFinding.1',
    at: '/paths/~1v1~1findings/post/description',
    text: 'Creates a finding in status `open` and emits `finding.created` to subscribed webhooks.',
  },
  {
    id: 'createFinding.2',
    at: '/paths/~1v1~1findings/post/description',
    text: 'If it references a policy that was `compliant`, the policy becomes `non_compliant` and `compliance.changed` is emitted too.',
  },
  {
    id: 'createFinding.3',
    at: '/paths/~1v1~1findings/post/description',
    text: 'Answers `201` with the finding, its `Location` and its `ETag`.',
  },
  {
    id: 'createFinding.4',
    at: '/paths/~1v1~1findings/post/description',
    text: 'Send an `Idempotency-Key` to make retries safe.',
  },
  { id: 'createFinding.5', at: '/paths/~1v1~1findings/post/description', text: 'Needs the `write` scope.' },
  // /paths/~1v1~1findings/post/responses/201/description
  {
    id: 'createFinding.6',
    at: '/paths/~1v1~1findings/post/responses/201/description',
    text: 'The finding was created.',
    informative: true,
  },
  // /paths/~1v1~1findings~1{id}/get/description
  {
    id: 'getFinding.1',
    at: '/paths/~1v1~1findings~1{id}/get/description',
    text: 'Returns one finding with its `ETag`.',
  },
  {
    id: 'getFinding.2',
    at: '/paths/~1v1~1findings~1{id}/get/description',
    text: 'With `If-None-Match` set to the current `ETag`, answers `304` and no body.',
  },
  { id: 'getFinding.3', at: '/paths/~1v1~1findings~1{id}/get/description', text: 'Needs the `read` scope.' },
  // /paths/~1v1~1findings~1{id}/get/responses/200/description
  { id: 'getFinding.4', at: '/paths/~1v1~1findings~1{id}/get/responses/200/description', text: 'The finding.', informative: true },
  // /paths/~1v1~1findings~1{id}/put/description
  {
    id: 'updateFinding.1',
    at: '/paths/~1v1~1findings~1{id}/put/description',
    text: "Replaces the finding's writable fields (see `FindingUpdate`) and moves it through its life cycle.",
  },
  {
    id: 'updateFinding.2',
    at: '/paths/~1v1~1findings~1{id}/put/description',
    text: 'A `status` change must be an allowed transition (`409` otherwise).',
  },
  {
    id: 'updateFinding.3',
    at: '/paths/~1v1~1findings~1{id}/put/description',
    text: 'Entering `resolved` sets `resolved_at` and emits `finding.resolved`; reopening clears `resolved_at` and `resolution`.',
  },
  {
    id: 'updateFinding.4',
    at: '/paths/~1v1~1findings~1{id}/put/description',
    text: "A change that flips the referenced policy's `compliance_status` emits `compliance.changed`.",
  },
  { id: 'updateFinding.5', at: '/paths/~1v1~1findings~1{id}/put/description', text: 'Returns the new `ETag`.' },
  {
    id: 'updateFinding.6',
    at: '/paths/~1v1~1findings~1{id}/put/description',
    text: 'Needs the `write` scope.',
  },
  {
    id: 'updateFinding.7',
    at: '/paths/~1v1~1findings~1{id}/put/description',
    text: '**`PUT` replaces the finding.** A field you leave out takes its default: resolving with only `title`, `severity`, `status` and `resolution` also sets `policy_id` to `null` and `description` to empty.',
  },
  { id: 'updateFinding.8', at: '/paths/~1v1~1findings~1{id}/put/description', text: 'Read, modify, write:', informative: true },
  {
    id: 'updateFinding.9',
    at: '/paths/~1v1~1findings~1{id}/put/description',
    text: '`GET /v1/findings/{id}`; keep the body and its `ETag`.',
    informative: true,
  },
  {
    id: 'updateFinding.10',
    at: '/paths/~1v1~1findings~1{id}/put/description',
    text: 'Copy `title`, `description`, `severity`, `status`, `resolution` and `policy_id` from it and change what you mean to change.',
    informative: true,
  },
  {
    id: 'updateFinding.11',
    at: '/paths/~1v1~1findings~1{id}/put/description',
    text: '`PUT` that body with `If-Match: <ETag>`.',
  },
  {
    id: 'updateFinding.12',
    at: '/paths/~1v1~1findings~1{id}/put/description',
    text: 'A `412` means someone changed the finding after your read: read again and redo step 2.',
  },
  // /paths/~1v1~1findings~1{id}/put/responses/200/description
  {
    id: 'updateFinding.13',
    at: '/paths/~1v1~1findings~1{id}/put/responses/200/description',
    text: 'The finding after the update.',
    informative: true,
  },
  // /paths/~1v1~1findings~1{id}/put/responses/409/description
  {
    id: 'updateFinding.14',
    at: '/paths/~1v1~1findings~1{id}/put/responses/409/description',
    text: 'The status change is not an allowed transition.',
  },
  // /paths/~1v1~1findings~1{id}/delete/description
  {
    id: 'deleteFinding.1',
    at: '/paths/~1v1~1findings~1{id}/delete/description',
    text: 'Deletes the finding for good (to close it and keep the record, resolve or suppress it instead).',
  },
  {
    id: 'deleteFinding.2',
    at: '/paths/~1v1~1findings~1{id}/delete/description',
    text: 'If it was the last open finding of its policy, the policy becomes `compliant` and `compliance.changed` is emitted with `finding_id: null`.',
  },
  { id: 'deleteFinding.3', at: '/paths/~1v1~1findings~1{id}/delete/description', text: 'Honours `If-Match`.' },
  {
    id: 'deleteFinding.4',
    at: '/paths/~1v1~1findings~1{id}/delete/description',
    text: 'Needs the `write` scope.',
  },
  // /paths/~1v1~1findings~1{id}/delete/responses/204/description
  {
    id: 'deleteFinding.5',
    at: '/paths/~1v1~1findings~1{id}/delete/responses/204/description',
    text: 'The finding was deleted.',
    informative: true,
  },
  // /paths/~1v1~1webhooks/get/description
  {
    id: 'listWebhooks.1',
    at: '/paths/~1v1~1webhooks/get/description',
    text: 'Returns webhook subscriptions newest first, ordered by (`created_at`, `id`) descending, one page at a time.',
  },
  {
    id: 'listWebhooks.2',
    at: '/paths/~1v1~1webhooks/get/description',
    text: 'Follow `next_cursor` until it is `null` to walk every page; the order is stable, so a walk sees no duplicates and skips nothing that existed when it started.',
  },
  {
    id: 'listWebhooks.3',
    at: '/paths/~1v1~1webhooks/get/description',
    text: 'Filter with `enabled` and `event` (webhooks subscribed to that event type).',
  },
  {
    id: 'listWebhooks.4',
    at: '/paths/~1v1~1webhooks/get/description',
    text: 'Unknown query parameters are refused with `400`.',
  },
  { id: 'listWebhooks.5', at: '/paths/~1v1~1webhooks/get/description', text: 'Needs the `read` scope.' },
  // /paths/~1v1~1webhooks/get/parameters/3/description
  {
    id: 'listWebhooks.6',
    at: '/paths/~1v1~1webhooks/get/parameters/3/description',
    text: 'Only webhooks subscribed to this event type.',
  },
  // /paths/~1v1~1webhooks/get/responses/200/description
  { id: 'listWebhooks.7', at: '/paths/~1v1~1webhooks/get/responses/200/description', text: 'One page of webhooks.', informative: true },
  // /paths/~1v1~1webhooks/post/description
  {
    id: 'createWebhook.1',
    at: '/paths/~1v1~1webhooks/post/description',
    text: 'Subscribes a URL to one or more event types.',
  },
  {
    id: 'createWebhook.2',
    at: '/paths/~1v1~1webhooks/post/description',
    text: 'The `secret` is stored for signing and never returned (`has_secret` shows it is set).',
  },
  {
    id: 'createWebhook.3',
    at: '/paths/~1v1~1webhooks/post/description',
    text: 'The URL is checked against the SSRF rules (see `url`); a refused URL gets `400` with the problem type `url-not-allowed`.',
  },
  {
    id: 'createWebhook.4',
    at: '/paths/~1v1~1webhooks/post/description',
    text: 'Answers `201` with the webhook, its `Location` and its `ETag`.',
  },
  {
    id: 'createWebhook.5',
    at: '/paths/~1v1~1webhooks/post/description',
    text: 'Send an `Idempotency-Key` to make retries safe.',
  },
  { id: 'createWebhook.6', at: '/paths/~1v1~1webhooks/post/description', text: 'Needs the `write` scope.' },
  // /paths/~1v1~1webhooks/post/responses/201/description
  {
    id: 'createWebhook.7',
    at: '/paths/~1v1~1webhooks/post/responses/201/description',
    text: 'The webhook was created.',
    informative: true,
  },
  // /paths/~1v1~1webhooks~1{id}/get/description
  {
    id: 'getWebhook.1',
    at: '/paths/~1v1~1webhooks~1{id}/get/description',
    text: 'Returns one webhook with its `ETag`.',
  },
  {
    id: 'getWebhook.2',
    at: '/paths/~1v1~1webhooks~1{id}/get/description',
    text: 'With `If-None-Match` set to the current `ETag`, answers `304` and no body.',
  },
  { id: 'getWebhook.3', at: '/paths/~1v1~1webhooks~1{id}/get/description', text: 'Needs the `read` scope.' },
  // /paths/~1v1~1webhooks~1{id}/get/responses/200/description
  { id: 'getWebhook.4', at: '/paths/~1v1~1webhooks~1{id}/get/responses/200/description', text: 'The webhook.', informative: true },
  // /paths/~1v1~1webhooks~1{id}/put/description
  {
    id: 'updateWebhook.1',
    at: '/paths/~1v1~1webhooks~1{id}/put/description',
    text: "Replaces the webhook's writable fields; omitted fields take their defaults, except `secret`: omitted keeps the current secret, `null` removes it, a string replaces it.",
  },
  {
    id: 'updateWebhook.2',
    at: '/paths/~1v1~1webhooks~1{id}/put/description',
    text: 'Re-enabling a webhook the service disabled clears `disabled_reason`.',
  },
  { id: 'updateWebhook.3', at: '/paths/~1v1~1webhooks~1{id}/put/description', text: 'Returns the new `ETag`.' },
  {
    id: 'updateWebhook.4',
    at: '/paths/~1v1~1webhooks~1{id}/put/description',
    text: 'To change one field, read the webhook, copy its writable fields into the body, change that field, and send the `ETag` you read as `If-Match` (`412` if someone changed it after your read).',
  },
  {
    id: 'updateWebhook.5',
    at: '/paths/~1v1~1webhooks~1{id}/put/description',
    text: 'Needs the `write` scope.',
  },
  // /paths/~1v1~1webhooks~1{id}/put/responses/200/description
  {
    id: 'updateWebhook.6',
    at: '/paths/~1v1~1webhooks~1{id}/put/responses/200/description',
    text: 'The webhook after the update.',
    informative: true,
  },
  // /paths/~1v1~1webhooks~1{id}/delete/description
  {
    id: 'deleteWebhook.1',
    at: '/paths/~1v1~1webhooks~1{id}/delete/description',
    text: 'Deletes the subscription.',
  },
  {
    id: 'deleteWebhook.2',
    at: '/paths/~1v1~1webhooks~1{id}/delete/description',
    text: 'Deliveries still pending for it are dropped.',
    unobservable: 'proving a dropped delivery never arrives needs waiting out its whole retry schedule',
  },
  { id: 'deleteWebhook.3', at: '/paths/~1v1~1webhooks~1{id}/delete/description', text: 'Honours `If-Match`.' },
  {
    id: 'deleteWebhook.4',
    at: '/paths/~1v1~1webhooks~1{id}/delete/description',
    text: 'Needs the `write` scope.',
  },
  // /paths/~1v1~1webhooks~1{id}/delete/responses/204/description
  {
    id: 'deleteWebhook.5',
    at: '/paths/~1v1~1webhooks~1{id}/delete/responses/204/description',
    text: 'The webhook was deleted.',
    informative: true,
  },
  // /webhooks/finding.created/post/description
  {
    id: 'findingCreated.1',
    at: '/webhooks/finding.created/post/description',
    text: 'Sent to webhooks subscribed to `finding.created` when a finding is created (`POST /v1/findings`).',
  },
  {
    id: 'findingCreated.2',
    at: '/webhooks/finding.created/post/description',
    text: 'The example body, signed with the secret `whsec_2f6c1e8a9b7d4c3e5f1a0b9c` and the example `webhook-id` and `webhook-timestamp`, is the worked example of *Verifying signatures*.',
    informative: true,
  },
  // /webhooks/finding.created/post/parameters/1/description
  // /webhooks/finding.resolved/post/description
  {
    id: 'findingResolved.1',
    at: '/webhooks/finding.resolved/post/description',
    text: 'Sent when a finding enters `resolved` through `PUT /v1/findings/{id}`.',
  },
  {
    id: 'findingResolved.2',
    at: '/webhooks/finding.resolved/post/description',
    text: 'Suppressing a finding does not send it.',
  },
  {
    id: 'findingResolved.3',
    at: '/webhooks/finding.resolved/post/description',
    text: 'A finding reopened and resolved again sends it again.',
  },
  // /webhooks/finding.resolved/post/parameters/1/description
  // /webhooks/compliance.changed/post/description
  {
    id: 'complianceChanged.1',
    at: '/webhooks/compliance.changed/post/description',
    text: "Sent when a policy's derived `compliance_status` flips: to `non_compliant` when its first open finding appears, back to `compliant` when its last open or in-progress finding is resolved, suppressed, re-linked or deleted.",
  },
  {
    id: 'complianceChanged.2',
    at: '/webhooks/compliance.changed/post/description',
    text: '`finding_id` names the finding whose change caused the flip (`null` when it was deleted).',
  },
  // /webhooks/compliance.changed/post/parameters/1/description
  // /webhooks/device.connected/post/description
  {
    id: 'deviceConnected.1',
    at: '/webhooks/device.connected/post/description',
    text: "Sent when a device's monitoring agent connects.",
  },
  {
    id: 'deviceConnected.2',
    at: '/webhooks/device.connected/post/description',
    text: 'Devices have no `/v1` resource; the reference server emits this event from its simulator (`npm run trigger -- device.connected`).',
    informative: true,
  },
  // /webhooks/device.connected/post/parameters/1/description
  // /webhooks/device.disconnected/post/description
  {
    id: 'deviceDisconnected.1',
    at: '/webhooks/device.disconnected/post/description',
    text: "Sent when a device's monitoring agent disconnects or misses its heartbeats.",
  },
  {
    id: 'deviceDisconnected.2',
    at: '/webhooks/device.disconnected/post/description',
    text: "Emitted by the reference server's simulator (`npm run trigger -- device.disconnected`).",
    informative: true,
  },
  // /webhooks/device.disconnected/post/parameters/1/description
  // /webhooks/scan.completed/post/description
  {
    id: 'scanCompleted.1',
    at: '/webhooks/scan.completed/post/description',
    text: 'Sent when a scan of a device finishes, whatever its outcome.',
  },
  {
    id: 'scanCompleted.2',
    at: '/webhooks/scan.completed/post/description',
    text: "Emitted by the reference server's simulator (`npm run trigger -- scan.completed`).",
    informative: true,
  },
  // /webhooks/scan.completed/post/parameters/1/description
  // /components/securitySchemes/bearerAuth/description
  {
    id: 'security.bearerAuth.1',
    at: '/components/securitySchemes/bearerAuth/description',
    text: 'An API key sent as `Authorization: Bearer <api key>`.',
  },
  {
    id: 'security.bearerAuth.2',
    at: '/components/securitySchemes/bearerAuth/description',
    text: 'Keys carry the scopes `read` and/or `write`; the scopes each operation needs are listed with it.',
  },
  // /components/schemas/ComplianceChangedEvent/description
  {
    id: 'schema.ComplianceChangedEvent.1',
    at: '/components/schemas/ComplianceChangedEvent/description',
    text: "Sent when a policy's derived `compliance_status` flips.",
  },
  // /components/schemas/ComplianceChangedEvent/properties/timestamp/description
  {
    id: 'schema.ComplianceChangedEvent.2',
    at: '/components/schemas/ComplianceChangedEvent/properties/timestamp/description',
    text: 'When the event happened (UTC).',
  },
  {
    id: 'schema.ComplianceChangedEvent.3',
    at: '/components/schemas/ComplianceChangedEvent/properties/timestamp/description',
    text: 'Receivers order events by this field.',
    informative: true,
  },
  // /components/schemas/ComplianceChangedEvent/properties/data/properties/finding_id/description
  {
    id: 'schema.ComplianceChangedEvent.4',
    at: '/components/schemas/ComplianceChangedEvent/properties/data/properties/finding_id/description',
    text: 'The finding whose change caused the flip, or `null` when none did (for example a deleted finding).',
  },
  // /components/schemas/ComplianceStatus/description
  {
    id: 'schema.ComplianceStatus.1',
    at: '/components/schemas/ComplianceStatus/description',
    text: '`non_compliant` while at least one `open` or `in_progress` finding references the policy, `compliant` otherwise.',
  },
  {
    id: 'schema.ComplianceStatus.2',
    at: '/components/schemas/ComplianceStatus/description',
    text: 'Derived by the service; never written by clients.',
  },
  // /components/schemas/Cursor/description
  { id: 'schema.Cursor.1', at: '/components/schemas/Cursor/description', text: 'Opaque pagination cursor.', informative: true },
  {
    id: 'schema.Cursor.2',
    at: '/components/schemas/Cursor/description',
    text: 'Pass the `next_cursor` of the previous page unchanged; never build or parse one.',
    informative: true,
  },
  {
    id: 'schema.Cursor.3',
    at: '/components/schemas/Cursor/description',
    text: 'A cursor is bound to the filters it was issued with.',
  },
  // /components/schemas/Description/description
  {
    id: 'schema.Description.1',
    at: '/components/schemas/Description/description',
    text: 'Free text for humans (Markdown is not rendered).',
    informative: true,
  },
  {
    id: 'schema.Description.2',
    at: '/components/schemas/Description/description',
    text: 'Defaults to the empty string.',
  },
  // /components/schemas/DeviceConnectedEvent/description
  {
    id: 'schema.DeviceConnectedEvent.1',
    at: '/components/schemas/DeviceConnectedEvent/description',
    text: "Sent when a device's monitoring agent connects.",
  },
  // /components/schemas/DeviceConnectedEvent/properties/timestamp/description
  {
    id: 'schema.DeviceConnectedEvent.2',
    at: '/components/schemas/DeviceConnectedEvent/properties/timestamp/description',
    text: 'When the event happened (UTC).',
  },
  {
    id: 'schema.DeviceConnectedEvent.3',
    at: '/components/schemas/DeviceConnectedEvent/properties/timestamp/description',
    text: 'Receivers order events by this field.',
    informative: true,
  },
  // /components/schemas/DeviceConnectedEvent/properties/data/properties/ip_address/description
  {
    id: 'schema.DeviceConnectedEvent.4',
    at: '/components/schemas/DeviceConnectedEvent/properties/data/properties/ip_address/description',
    text: 'The address the agent connected from, IPv4 or IPv6.',
  },
  // /components/schemas/DeviceDisconnectedEvent/description
  {
    id: 'schema.DeviceDisconnectedEvent.1',
    at: '/components/schemas/DeviceDisconnectedEvent/description',
    text: "Sent when a device's monitoring agent disconnects or stops sending heartbeats.",
  },
  // /components/schemas/DeviceDisconnectedEvent/properties/timestamp/description
  {
    id: 'schema.DeviceDisconnectedEvent.2',
    at: '/components/schemas/DeviceDisconnectedEvent/properties/timestamp/description',
    text: 'When the event happened (UTC).',
  },
  {
    id: 'schema.DeviceDisconnectedEvent.3',
    at: '/components/schemas/DeviceDisconnectedEvent/properties/timestamp/description',
    text: 'Receivers order events by this field.',
    informative: true,
  },
  // /components/schemas/DeviceId/description
  {
    id: 'schema.DeviceId.1',
    at: '/components/schemas/DeviceId/description',
    text: 'Identifier of a monitored device: the prefix `dev_` followed by 26 characters of lowercase Crockford base32 (a TypeID wrapping a UUIDv7), so identifiers sort by creation time.',
  },
  // /components/schemas/EventType/description
  {
    id: 'schema.EventType.1',
    at: '/components/schemas/EventType/description',
    text: 'The type of a webhook notification.',
    informative: true,
  },
  {
    id: 'schema.EventType.2',
    at: '/components/schemas/EventType/description',
    text: 'See the `webhooks` section for each payload.',
    informative: true,
  },
  // /components/schemas/Finding/description
  {
    id: 'schema.Finding.1',
    at: '/components/schemas/Finding/description',
    text: 'A security issue detected on a device, optionally linked to the policy it violates.',
    informative: true,
  },
  {
    id: 'schema.Finding.2',
    at: '/components/schemas/Finding/description',
    text: '`resolution` is non-null exactly when `status` is `resolved` or `suppressed`; `resolved_at` is set when the finding enters `resolved` and cleared when it is reopened.',
  },
  // /components/schemas/Finding/properties/resolved_at/description
  {
    id: 'schema.Finding.3',
    at: '/components/schemas/Finding/properties/resolved_at/description',
    text: 'When the finding last entered `resolved`; `null` in any other status.',
  },
  // /components/schemas/FindingCreate/description
  { id: 'schema.FindingCreate.1', at: '/components/schemas/FindingCreate/description', text: 'A new finding.', informative: true },
  {
    id: 'schema.FindingCreate.2',
    at: '/components/schemas/FindingCreate/description',
    text: 'Its status is always `open` on creation (send no `status`); `first_seen_at` and `last_seen_at` default to the time of creation, and `last_seen_at` may not be earlier than `first_seen_at`.',
  },
  {
    id: 'schema.FindingCreate.3',
    at: '/components/schemas/FindingCreate/description',
    text: 'A `policy_id` must name an existing policy (`400` otherwise).',
  },
  // /components/schemas/FindingCreate/properties/policy_id/description
  {
    id: 'schema.FindingCreate.4',
    at: '/components/schemas/FindingCreate/properties/policy_id/description',
    text: 'The policy this finding violates, or `null`.',
    informative: true,
  },
  // /components/schemas/FindingCreatedEvent/description
  {
    id: 'schema.FindingCreatedEvent.1',
    at: '/components/schemas/FindingCreatedEvent/description',
    text: 'Sent when a finding is created.',
  },
  // /components/schemas/FindingCreatedEvent/properties/timestamp/description
  {
    id: 'schema.FindingCreatedEvent.2',
    at: '/components/schemas/FindingCreatedEvent/properties/timestamp/description',
    text: 'When the event happened (UTC).',
  },
  {
    id: 'schema.FindingCreatedEvent.3',
    at: '/components/schemas/FindingCreatedEvent/properties/timestamp/description',
    text: 'Receivers order events by this field.',
    informative: true,
  },
  // /components/schemas/FindingCreatedEvent/properties/data/properties/policy_id/description
  {
    id: 'schema.FindingCreatedEvent.4',
    at: '/components/schemas/FindingCreatedEvent/properties/data/properties/policy_id/description',
    text: 'The violated policy, or `null`.',
  },
  // /components/schemas/FindingId/description
  {
    id: 'schema.FindingId.1',
    at: '/components/schemas/FindingId/description',
    text: 'Identifier of a finding: the prefix `fnd_` followed by 26 characters of lowercase Crockford base32 (a TypeID wrapping a UUIDv7), so identifiers sort by creation time.',
  },
  // /components/schemas/FindingList/description
  {
    id: 'schema.FindingList.1',
    at: '/components/schemas/FindingList/description',
    text: 'One page of findings, newest first.',
  },
  // /components/schemas/FindingResolvedEvent/description
  {
    id: 'schema.FindingResolvedEvent.1',
    at: '/components/schemas/FindingResolvedEvent/description',
    text: 'Sent when a finding enters the `resolved` status (not when it is suppressed).',
  },
  // /components/schemas/FindingResolvedEvent/properties/timestamp/description
  {
    id: 'schema.FindingResolvedEvent.2',
    at: '/components/schemas/FindingResolvedEvent/properties/timestamp/description',
    text: 'When the event happened (UTC).',
  },
  {
    id: 'schema.FindingResolvedEvent.3',
    at: '/components/schemas/FindingResolvedEvent/properties/timestamp/description',
    text: 'Receivers order events by this field.',
    informative: true,
  },
  // /components/schemas/FindingStatus/description
  {
    id: 'schema.FindingStatus.1',
    at: '/components/schemas/FindingStatus/description',
    text: 'Where a finding is in its life cycle.',
    informative: true,
  },
  { id: 'schema.FindingStatus.2', at: '/components/schemas/FindingStatus/description', text: 'Allowed transitions:', informative: true },
  {
    id: 'schema.FindingStatus.3',
    at: '/components/schemas/FindingStatus/description',
    text: '`open` | `in_progress`, `resolved`, `suppressed`',
  },
  {
    id: 'schema.FindingStatus.4',
    at: '/components/schemas/FindingStatus/description',
    text: '`in_progress` | `open`, `resolved`, `suppressed`',
  },
  {
    id: 'schema.FindingStatus.5',
    at: '/components/schemas/FindingStatus/description',
    text: '`resolved` | `open` (reopen)',
  },
  {
    id: 'schema.FindingStatus.6',
    at: '/components/schemas/FindingStatus/description',
    text: '`suppressed` | `open` (reopen)',
  },
  {
    id: 'schema.FindingStatus.7',
    at: '/components/schemas/FindingStatus/description',
    text: 'Any other change of status (for example `resolved` → `suppressed`) is refused with `409` and the problem type `https://secmon.dev/problems/invalid-transition`.',
  },
  {
    id: 'schema.FindingStatus.8',
    at: '/components/schemas/FindingStatus/description',
    text: 'Setting the status a finding already has is not a transition and is always allowed.',
  },
  // /components/schemas/FindingTitle/description
  {
    id: 'schema.FindingTitle.1',
    at: '/components/schemas/FindingTitle/description',
    text: 'One-line summary of the issue.',
    informative: true,
  },
  // /components/schemas/FindingUpdate/description
  {
    id: 'schema.FindingUpdate.1',
    at: '/components/schemas/FindingUpdate/description',
    text: "Full replacement of a finding's writable fields.",
  },
  {
    id: 'schema.FindingUpdate.2',
    at: '/components/schemas/FindingUpdate/description',
    text: '`device_id`, `first_seen_at` and `last_seen_at` are fixed at creation.',
  },
  {
    id: 'schema.FindingUpdate.3',
    at: '/components/schemas/FindingUpdate/description',
    text: 'Omitted optional fields take their defaults (`description` becomes empty, `policy_id` becomes `null`).',
  },
  {
    id: 'schema.FindingUpdate.4',
    at: '/components/schemas/FindingUpdate/description',
    text: '`resolution` is required when `status` is `resolved` or `suppressed` (with a reason that matches the status) and must be absent or `null` otherwise.',
  },
  {
    id: 'schema.FindingUpdate.5',
    at: '/components/schemas/FindingUpdate/description',
    text: 'A status change that is not an allowed transition (see `FindingStatus`) is refused with `409`.',
  },
  // /components/schemas/FindingUpdate/properties/policy_id/description
  {
    id: 'schema.FindingUpdate.6',
    at: '/components/schemas/FindingUpdate/properties/policy_id/description',
    text: 'The policy this finding violates, or `null`.',
    informative: true,
  },
  // /components/schemas/FrameworkMapping/description
  {
    id: 'schema.FrameworkMapping.1',
    at: '/components/schemas/FrameworkMapping/description',
    text: 'A control of a compliance framework that the policy implements.',
    informative: true,
  },
  // /components/schemas/FrameworkMapping/properties/framework/description
  {
    id: 'schema.FrameworkMapping.2',
    at: '/components/schemas/FrameworkMapping/properties/framework/description',
    text: 'The compliance framework.',
    informative: true,
  },
  {
    id: 'schema.FrameworkMapping.3',
    at: '/components/schemas/FrameworkMapping/properties/framework/description',
    text: 'Use `custom` for an in-house control catalogue.',
    informative: true,
  },
  // /components/schemas/FrameworkMapping/properties/control/description
  {
    id: 'schema.FrameworkMapping.4',
    at: '/components/schemas/FrameworkMapping/properties/control/description',
    text: "The control's identifier within the framework, for example `5.2.10` (CIS) or `AC-17` (NIST).",
    informative: true,
  },
  // /components/schemas/Hostname/description
  {
    id: 'schema.Hostname.1',
    at: '/components/schemas/Hostname/description',
    text: "The device's host name as its agent reports it.",
    informative: true,
  },
  // /components/schemas/LastDelivery/description
  {
    id: 'schema.LastDelivery.1',
    at: '/components/schemas/LastDelivery/description',
    text: 'Outcome of the most recent delivery attempt to this webhook.',
  },
  // /components/schemas/LastDelivery/properties/status_code/description
  {
    id: 'schema.LastDelivery.2',
    at: '/components/schemas/LastDelivery/properties/status_code/description',
    text: "The receiver's HTTP status, or `null` when no response arrived (time-out, refused connection, blocked address).",
  },
  // /components/schemas/LastDelivery/properties/succeeded/description
  {
    id: 'schema.LastDelivery.3',
    at: '/components/schemas/LastDelivery/properties/succeeded/description',
    text: '`true` for a 2xx answer within 10 seconds.',
  },
  // /components/schemas/NextCursor/description
  {
    id: 'schema.NextCursor.1',
    at: '/components/schemas/NextCursor/description',
    text: 'Cursor for the next page, or `null` on the last page.',
  },
  // /components/schemas/Policy/description
  {
    id: 'schema.Policy.1',
    at: '/components/schemas/Policy/description',
    text: 'A security policy that devices are checked against.',
    informative: true,
  },
  { id: 'schema.Policy.2', at: '/components/schemas/Policy/description', text: 'Findings may reference it.', informative: true },
  // /components/schemas/Policy/properties/version/description
  {
    id: 'schema.Policy.3',
    at: '/components/schemas/Policy/properties/version/description',
    text: 'Starts at 1 and increases by one on every successful update.',
  },
  // /components/schemas/PolicyId/description
  {
    id: 'schema.PolicyId.1',
    at: '/components/schemas/PolicyId/description',
    text: 'Identifier of a policy: the prefix `pol_` followed by 26 characters of lowercase Crockford base32 (a TypeID wrapping a UUIDv7), so identifiers sort by creation time.',
  },
  // /components/schemas/PolicyList/description
  {
    id: 'schema.PolicyList.1',
    at: '/components/schemas/PolicyList/description',
    text: 'One page of policies, newest first.',
  },
  // /components/schemas/PolicyRule/description
  {
    id: 'schema.PolicyRule.1',
    at: '/components/schemas/PolicyRule/description',
    text: 'The machine-evaluable rule behind a policy.',
    informative: true,
  },
  // /components/schemas/PolicyRule/properties/language/description
  {
    id: 'schema.PolicyRule.2',
    at: '/components/schemas/PolicyRule/properties/language/description',
    text: 'The rule language.',
    informative: true,
  },
  {
    id: 'schema.PolicyRule.3',
    at: '/components/schemas/PolicyRule/properties/language/description',
    text: "Only Open Policy Agent's Rego for now.",
    informative: true,
  },
  // /components/schemas/PolicyRule/properties/source/description
  {
    id: 'schema.PolicyRule.4',
    at: '/components/schemas/PolicyRule/properties/source/description',
    text: "The rule's source code.",
    informative: true,
  },
  // /components/schemas/PolicyWrite/description
  {
    id: 'schema.PolicyWrite.1',
    at: '/components/schemas/PolicyWrite/description',
    text: 'The writable fields of a policy, used by both create (`POST`) and full replacement (`PUT`).',
    informative: true,
  },
  {
    id: 'schema.PolicyWrite.2',
    at: '/components/schemas/PolicyWrite/description',
    text: 'On `PUT`, a field you omit takes its default: send every field you want to keep.',
  },
  // /components/schemas/PolicyWrite/properties/name/description
  {
    id: 'schema.PolicyWrite.3',
    at: '/components/schemas/PolicyWrite/properties/name/description',
    text: 'Human-readable name, unique in intent but not enforced.',
  },
  // /components/schemas/PolicyWrite/properties/enabled/description
  {
    id: 'schema.PolicyWrite.4',
    at: '/components/schemas/PolicyWrite/properties/enabled/description',
    text: 'Disabled policies are kept but produce no new findings.',
    unobservable: "findings are raised by the service's scanners, outside the /v1 API",
  },
  // /components/schemas/PolicyWrite/properties/frameworks/description
  {
    id: 'schema.PolicyWrite.5',
    at: '/components/schemas/PolicyWrite/properties/frameworks/description',
    text: 'Compliance controls this policy maps to.',
    informative: true,
  },
  {
    id: 'schema.PolicyWrite.6',
    at: '/components/schemas/PolicyWrite/properties/frameworks/description',
    text: 'Defaults to none.',
  },
  // /components/schemas/PolicyWrite/properties/rule/description
  {
    id: 'schema.PolicyWrite.7',
    at: '/components/schemas/PolicyWrite/properties/rule/description',
    text: 'The rule evaluated by scanners, or `null` for a policy checked by people.',
    informative: true,
  },
  // /components/schemas/Problem/description
  {
    id: 'schema.Problem.1',
    at: '/components/schemas/Problem/description',
    text: 'An RFC 9457 problem details object, sent with `Content-Type: application/problem+json` for every error.',
  },
  {
    id: 'schema.Problem.2',
    at: '/components/schemas/Problem/description',
    text: 'Branch on `type` (stable) rather than on `title` or `detail` (for humans, may change).',
    informative: true,
  },
  {
    id: 'schema.Problem.3',
    at: '/components/schemas/Problem/description',
    text: 'See *Errors* for the catalogue of types.',
    informative: true,
  },
  // /components/schemas/Problem/properties/type/description
  {
    id: 'schema.Problem.4',
    at: '/components/schemas/Problem/properties/type/description',
    text: 'A stable URI identifying the kind of problem.',
  },
  // /components/schemas/Problem/properties/title/description
  {
    id: 'schema.Problem.5',
    at: '/components/schemas/Problem/properties/title/description',
    text: 'Short, human-readable summary of the problem kind.',
    informative: true,
  },
  // /components/schemas/Problem/properties/status/description
  {
    id: 'schema.Problem.6',
    at: '/components/schemas/Problem/properties/status/description',
    text: 'The HTTP status code, repeated for convenience.',
  },
  // /components/schemas/Problem/properties/detail/description
  {
    id: 'schema.Problem.7',
    at: '/components/schemas/Problem/properties/detail/description',
    text: 'Explanation specific to this occurrence.',
    informative: true,
  },
  // /components/schemas/Problem/properties/instance/description
  {
    id: 'schema.Problem.8',
    at: '/components/schemas/Problem/properties/instance/description',
    text: 'The request path that caused the problem.',
  },
  // /components/schemas/Problem/properties/errors/description
  {
    id: 'schema.Problem.9',
    at: '/components/schemas/Problem/properties/errors/description',
    text: 'For validation problems, one entry per invalid part of the request.',
  },
  // /components/schemas/ProblemError/description
  {
    id: 'schema.ProblemError.1',
    at: '/components/schemas/ProblemError/description',
    text: 'One invalid part of a request.',
    informative: true,
  },
  // /components/schemas/ProblemError/properties/pointer/description
  {
    id: 'schema.ProblemError.2',
    at: '/components/schemas/ProblemError/properties/pointer/description',
    text: 'Where the problem is, as a JSON Pointer (RFC 6901) into the request seen as `{ body, query, path, headers }`: `/body/frameworks/0/control` for a body field, `/query/limit`, `/path/id` or `/headers/if-match` for a parameter.',
  },
  // /components/schemas/ProblemError/properties/message/description
  {
    id: 'schema.ProblemError.3',
    at: '/components/schemas/ProblemError/properties/message/description',
    text: 'What is wrong there.',
  },
  // /components/schemas/Resolution/description
  {
    id: 'schema.Resolution.1',
    at: '/components/schemas/Resolution/description',
    text: 'Why and how a finding was closed.',
    informative: true,
  },
  {
    id: 'schema.Resolution.2',
    at: '/components/schemas/Resolution/description',
    text: 'Present exactly when the status is `resolved` or `suppressed`.',
  },
  // /components/schemas/Resolution/properties/comment/description
  {
    id: 'schema.Resolution.3',
    at: '/components/schemas/Resolution/properties/comment/description',
    text: 'Free-text justification, kept for audit.',
    informative: true,
  },
  {
    id: 'schema.Resolution.4',
    at: '/components/schemas/Resolution/properties/comment/description',
    text: 'Defaults to the empty string.',
  },
  // /components/schemas/ResolutionReason/description
  {
    id: 'schema.ResolutionReason.1',
    at: '/components/schemas/ResolutionReason/description',
    text: 'Why a finding was closed.',
    informative: true,
  },
  {
    id: 'schema.ResolutionReason.2',
    at: '/components/schemas/ResolutionReason/description',
    text: '`fixed`, `no_longer_detected` and `duplicate` go with status `resolved`; `false_positive`, `accepted_risk` and `wont_fix` go with status `suppressed`.',
  },
  // /components/schemas/ScanCompletedEvent/description
  {
    id: 'schema.ScanCompletedEvent.1',
    at: '/components/schemas/ScanCompletedEvent/description',
    text: 'Sent when a scan of a device finishes, successfully or not.',
  },
  // /components/schemas/ScanCompletedEvent/properties/timestamp/description
  {
    id: 'schema.ScanCompletedEvent.2',
    at: '/components/schemas/ScanCompletedEvent/properties/timestamp/description',
    text: 'When the event happened (UTC).',
  },
  {
    id: 'schema.ScanCompletedEvent.3',
    at: '/components/schemas/ScanCompletedEvent/properties/timestamp/description',
    text: 'Receivers order events by this field.',
    informative: true,
  },
  // /components/schemas/ScanCompletedEvent/properties/data/properties/new_findings/description
  {
    id: 'schema.ScanCompletedEvent.4',
    at: '/components/schemas/ScanCompletedEvent/properties/data/properties/new_findings/description',
    text: 'How many new findings the scan produced, by severity.',
    informative: true,
  },
  // /components/schemas/ScanId/description
  {
    id: 'schema.ScanId.1',
    at: '/components/schemas/ScanId/description',
    text: 'Identifier of a scan: the prefix `scn_` followed by 26 characters of lowercase Crockford base32 (a TypeID wrapping a UUIDv7), so identifiers sort by creation time.',
    unobservable:
      "the kit names the scan_id of every scan it raises, so the service's own scan ids reach it only from a trigger command that cannot carry ids, where the schema's pattern judges their form; that they sort by creation time would need scans the kit does not cause",
  },
  // /components/schemas/Severity/description
  {
    id: 'schema.Severity.1',
    at: '/components/schemas/Severity/description',
    text: 'How serious the issue is, from `info` (no action needed) to `critical` (act now).',
    informative: true,
  },
  // /components/schemas/Timestamp/description
  {
    id: 'schema.Timestamp.1',
    at: '/components/schemas/Timestamp/description',
    text: 'An RFC 3339 / ISO 8601 timestamp in UTC, always with the `Z` designator.',
  },
  // /components/schemas/Webhook/description
  {
    id: 'schema.Webhook.1',
    at: '/components/schemas/Webhook/description',
    text: 'A subscription that receives signed notifications for the chosen event types.',
    informative: true,
  },
  // /components/schemas/Webhook/properties/has_secret/description
  {
    id: 'schema.Webhook.2',
    at: '/components/schemas/Webhook/properties/has_secret/description',
    text: 'Whether deliveries are signed.',
  },
  {
    id: 'schema.Webhook.3',
    at: '/components/schemas/Webhook/properties/has_secret/description',
    text: 'The secret itself is never returned.',
  },
  // /components/schemas/Webhook/properties/disabled_reason/description
  {
    id: 'schema.Webhook.4',
    at: '/components/schemas/Webhook/properties/disabled_reason/description',
    text: 'Why the service disabled this webhook, or `null`.',
  },
  {
    id: 'schema.Webhook.5',
    at: '/components/schemas/Webhook/properties/disabled_reason/description',
    text: '`endpoint_gone`: the receiver answered `410 Gone`.',
  },
  {
    id: 'schema.Webhook.6',
    at: '/components/schemas/Webhook/properties/disabled_reason/description',
    text: '`failing`: deliveries kept failing until their retries ran out.',
    unobservable: 'needs three days of failing deliveries',
  },
  {
    id: 'schema.Webhook.7',
    at: '/components/schemas/Webhook/properties/disabled_reason/description',
    text: 'A webhook you disabled yourself has `enabled: false` and `disabled_reason: null`.',
  },
  // /components/schemas/WebhookCreate/description
  {
    id: 'schema.WebhookCreate.1',
    at: '/components/schemas/WebhookCreate/description',
    text: 'A new webhook subscription.',
    informative: true,
  },
  // /components/schemas/WebhookCreate/properties/enabled/description
  {
    id: 'schema.WebhookCreate.2',
    at: '/components/schemas/WebhookCreate/properties/enabled/description',
    text: 'Disabled webhooks receive nothing.',
  },
  // /components/schemas/WebhookEvents/description
  {
    id: 'schema.WebhookEvents.1',
    at: '/components/schemas/WebhookEvents/description',
    text: 'The event types this webhook receives; one to six, without repeats.',
  },
  // /components/schemas/WebhookId/description
  {
    id: 'schema.WebhookId.1',
    at: '/components/schemas/WebhookId/description',
    text: 'Identifier of a webhook subscription: the prefix `whk_` followed by 26 characters of lowercase Crockford base32 (a TypeID wrapping a UUIDv7), so identifiers sort by creation time.',
  },
  // /components/schemas/WebhookList/description
  {
    id: 'schema.WebhookList.1',
    at: '/components/schemas/WebhookList/description',
    text: 'One page of webhook subscriptions, newest first.',
  },
  // /components/schemas/WebhookSecret/description
  {
    id: 'schema.WebhookSecret.1',
    at: '/components/schemas/WebhookSecret/description',
    text: 'Shared secret used to sign every delivery (see *Verifying signatures*).',
  },
  {
    id: 'schema.WebhookSecret.2',
    at: '/components/schemas/WebhookSecret/description',
    text: 'Write-only: it is never returned and never logged; `has_secret` tells whether one is set.',
  },
  {
    id: 'schema.WebhookSecret.3',
    at: '/components/schemas/WebhookSecret/description',
    text: 'Generate at least 32 random bytes, for example `openssl rand -hex 32` (the Integrations page generates `whsec_` and 32 random bytes in base64).',
    informative: true,
  },
  // /components/schemas/WebhookUpdate/description
  {
    id: 'schema.WebhookUpdate.1',
    at: '/components/schemas/WebhookUpdate/description',
    text: "Full replacement of a webhook's writable fields; omitted fields take their defaults, with one exception: `secret`.",
  },
  {
    id: 'schema.WebhookUpdate.3',
    at: '/components/schemas/WebhookUpdate/description',
    text: 'Setting `enabled: true` on a webhook the service disabled clears its `disabled_reason`.',
  },
  {
    id: 'schema.WebhookUpdate.2',
    at: '/components/schemas/WebhookUpdate/description',
    text: 'Omit `secret` to keep the current one, send `null` to remove it (deliveries are then unsigned at once), or send a new string to rotate it: the replaced secret keeps signing deliveries beside the new one for 24 hours (see *Rotating a secret*).',
  },
  // /components/schemas/WebhookUrl/description
  {
    id: 'schema.WebhookUrl.1',
    at: '/components/schemas/WebhookUrl/description',
    text: 'Where notifications are POSTed.',
    informative: true,
  },
  {
    id: 'schema.WebhookUrl.2',
    at: '/components/schemas/WebhookUrl/description',
    text: '`http` or `https` only; in production the service accepts only `https` and refuses targets that resolve to loopback, private (RFC 1918, `fc00::/7`), link-local, CGNAT (`100.64.0.0/10`) or cloud-metadata addresses, both when the webhook is saved and again on every delivery.',
  },
  {
    id: 'schema.WebhookUrl.3',
    at: '/components/schemas/WebhookUrl/description',
    text: 'Redirects are never followed.',
  },
  // /components/parameters/Limit/description
  {
    id: 'param.Limit.1',
    at: '/components/parameters/Limit/description',
    text: 'Page size, 1 to 100.',
  },
  // /components/parameters/Cursor/description
  {
    id: 'param.Cursor.1',
    at: '/components/parameters/Cursor/description',
    text: 'The `next_cursor` of the previous page.',
  },
  {
    id: 'param.Cursor.2',
    at: '/components/parameters/Cursor/description',
    text: 'Omit it for the first page.',
  },
  // /components/parameters/EnabledFilter/description
  {
    id: 'param.EnabledFilter.1',
    at: '/components/parameters/EnabledFilter/description',
    text: 'Only enabled (`true`) or disabled (`false`) items.',
  },
  // /components/parameters/SeverityFilter/description
  {
    id: 'param.SeverityFilter.1',
    at: '/components/parameters/SeverityFilter/description',
    text: 'Only items with this severity.',
  },
  // /components/parameters/IdempotencyKey/description
  {
    id: 'param.IdempotencyKey.1',
    at: '/components/parameters/IdempotencyKey/description',
    text: 'A unique key (a UUID is ideal) that makes the create safe to retry.',
    informative: true,
  },
  {
    id: 'param.IdempotencyKey.2',
    at: '/components/parameters/IdempotencyKey/description',
    text: 'A retry with the same key and an identical body within 24 hours returns the first response again (same status, body and headers) and creates nothing; the same key with a different body is refused with `409` (`idempotency-key-reused`).',
  },
  {
    id: 'param.IdempotencyKey.3',
    at: '/components/parameters/IdempotencyKey/description',
    text: 'Keys are scoped to the API key that sent them.',
    unobservable: 'needs a second key with the write scope',
  },
  // /components/parameters/PolicyIdPath/description
  {
    id: 'param.PolicyIdPath.1',
    at: '/components/parameters/PolicyIdPath/description',
    text: "The policy's identifier.",
    informative: true,
  },
  {
    id: 'param.PolicyIdPath.2',
    at: '/components/parameters/PolicyIdPath/description',
    text: 'A malformed identifier is refused with `400`; an unknown one with `404`.',
  },
  // /components/parameters/IfNoneMatch/description
  {
    id: 'param.IfNoneMatch.1',
    at: '/components/parameters/IfNoneMatch/description',
    text: 'Answer `304 Not Modified` without a body if the current `ETag` is this one.',
  },
  // /components/parameters/IfMatch/description
  {
    id: 'param.IfMatch.1',
    at: '/components/parameters/IfMatch/description',
    text: "Perform the change only if the resource's current `ETag` is this one; `412` otherwise.",
  },
  // /components/parameters/FindingIdPath/description
  {
    id: 'param.FindingIdPath.1',
    at: '/components/parameters/FindingIdPath/description',
    text: "The finding's identifier.",
    informative: true,
  },
  {
    id: 'param.FindingIdPath.2',
    at: '/components/parameters/FindingIdPath/description',
    text: 'A malformed identifier is refused with `400`; an unknown one with `404`.',
  },
  // /components/parameters/WebhookIdPath/description
  {
    id: 'param.WebhookIdPath.1',
    at: '/components/parameters/WebhookIdPath/description',
    text: "The webhook's identifier.",
    informative: true,
  },
  {
    id: 'param.WebhookIdPath.2',
    at: '/components/parameters/WebhookIdPath/description',
    text: 'A malformed identifier is refused with `400`; an unknown one with `404`.',
  },
  // /components/parameters/SignatureHeader/description
  {
    id: 'param.SignatureHeader.1',
    at: '/components/parameters/SignatureHeader/description',
    text: "`sha256=` followed by the lowercase hex HMAC-SHA256 of the exact raw request body, keyed with the webhook's secret (UTF-8).",
  },
  {
    id: 'param.SignatureHeader.2',
    at: '/components/parameters/SignatureHeader/description',
    text: 'Absent when the webhook has no secret.',
  },
  {
    id: 'param.SignatureHeader.3',
    at: '/components/parameters/SignatureHeader/description',
    text: "Same scheme as GitHub's `X-Hub-Signature-256`.",
    informative: true,
  },
  {
    id: 'param.SignatureHeader.4',
    at: '/components/parameters/SignatureHeader/description',
    text: 'Verify it in constant time before trusting the body.',
    informative: true,
  },
  // /components/parameters/DeliveryHeader/description
  {
    id: 'param.DeliveryHeader.1',
    at: '/components/parameters/DeliveryHeader/description',
    text: 'Identifies one event sent to one webhook (a UUID).',
  },
  {
    id: 'param.DeliveryHeader.2',
    at: '/components/parameters/DeliveryHeader/description',
    text: 'Every retry of that delivery repeats it, so receivers can use it to drop duplicates.',
  },
  // /components/parameters/WebhookIdHeader/description
  {
    id: 'param.WebhookIdHeader.1',
    at: '/components/parameters/WebhookIdHeader/description',
    text: 'The webhook subscription this delivery is for.',
  },
  // /components/parameters/UserAgentHeader/description
  {
    id: 'param.UserAgentHeader.1',
    at: '/components/parameters/UserAgentHeader/description',
    text: "`SecMon-Webhooks/<version>` where `<version>` is the sending service's version.",
  },
  // /components/headers/RateLimit/description
  {
    id: 'header.RateLimit.1',
    at: '/components/headers/RateLimit/description',
    text: "Remaining quota of the caller's API key in the current window (IETF `draft-ietf-httpapi-ratelimit-headers`, draft 8): `r` requests remain, the window resets in `t` seconds.",
  },
  {
    id: 'header.RateLimit.2',
    at: '/components/headers/RateLimit/description',
    text: "On a `429` for failed authentication, the client address's quota of failures.",
  },
  // /components/headers/RateLimitPolicy/description
  {
    id: 'header.RateLimitPolicy.1',
    at: '/components/headers/RateLimitPolicy/description',
    text: "The quota policy of the caller's API key: `q` requests per `w`-second window, counted per key.",
  },
  {
    id: 'header.RateLimitPolicy.2',
    at: '/components/headers/RateLimitPolicy/description',
    text: 'On a `429` for failed authentication, the policy of failures per client address.',
  },
  // /components/headers/WWWAuthenticate/description
  {
    id: 'header.WWWAuthenticate.1',
    at: '/components/headers/WWWAuthenticate/description',
    text: 'The authentication scheme to use (RFC 6750).',
  },
  // /components/headers/RetryAfter/description
  {
    id: 'header.RetryAfter.1',
    at: '/components/headers/RetryAfter/description',
    text: 'Seconds to wait before retrying.',
  },
  // /components/headers/PolicyLocation/description
  {
    id: 'header.PolicyLocation.1',
    at: '/components/headers/PolicyLocation/description',
    text: "Path of the created policy, relative to the API's base URL (the same path `GET` reads it at).",
  },
  // /components/headers/ETag/description
  {
    id: 'header.ETag.1',
    at: '/components/headers/ETag/description',
    text: 'Strong entity tag of the returned representation.',
  },
  {
    id: 'header.ETag.2',
    at: '/components/headers/ETag/description',
    text: 'Send it back in `If-Match` to make an update or delete conditional (`412` if the resource changed since), or in `If-None-Match` to get `304` when it has not.',
  },
  // /components/headers/IdempotentReplayed/description
  {
    id: 'header.IdempotentReplayed.1',
    at: '/components/headers/IdempotentReplayed/description',
    text: '`true` when this response is the replay of an earlier request with the same `Idempotency-Key` (nothing was created this time); absent on the response that created the resource.',
  },
  // /components/headers/FindingLocation/description
  {
    id: 'header.FindingLocation.1',
    at: '/components/headers/FindingLocation/description',
    text: "Path of the created finding, relative to the API's base URL (the same path `GET` reads it at).",
  },
  // /components/headers/WebhookLocation/description
  {
    id: 'header.WebhookLocation.1',
    at: '/components/headers/WebhookLocation/description',
    text: "Path of the created webhook, relative to the API's base URL (the same path `GET` reads it at).",
  },
  // /components/responses/BadRequest/description
  {
    id: 'response.BadRequest.1',
    at: '/components/responses/BadRequest/description',
    text: 'The request is malformed or invalid.',
    informative: true,
  },
  {
    id: 'response.BadRequest.2',
    at: '/components/responses/BadRequest/description',
    text: '`errors` lists each invalid part.',
  },
  // /components/responses/Unauthorized/description
  {
    id: 'response.Unauthorized.1',
    at: '/components/responses/Unauthorized/description',
    text: 'No API key, or one the service does not know.',
  },
  {
    id: 'response.Unauthorized.2',
    at: '/components/responses/Unauthorized/description',
    text: 'Send `Authorization: Bearer <api key>`.',
    informative: true,
  },
  {
    id: 'response.Unauthorized.3',
    at: '/components/responses/Unauthorized/description',
    text: 'Too many of these from one address get `429` instead (see *Rate limits*).',
  },
  // /components/responses/Forbidden/description
  {
    id: 'response.Forbidden.1',
    at: '/components/responses/Forbidden/description',
    text: 'The API key is valid but lacks the scope this operation needs (`read` or `write`).',
  },
  // /components/responses/TooManyRequests/description
  {
    id: 'response.TooManyRequests.2',
    at: '/components/responses/TooManyRequests/description',
    text: 'Wait `Retry-After` seconds.',
    informative: true,
  },
  {
    id: 'response.TooManyRequests.1',
    at: '/components/responses/TooManyRequests/description',
    text: "The API key used up its quota for the current window, or too many requests with a missing or unknown key came from the client's address (see *Rate limits*).",
  },
  // /components/responses/InternalError/description
  {
    id: 'response.InternalError.1',
    at: '/components/responses/InternalError/description',
    text: 'An unexpected error in the service.',
    informative: true,
  },
  {
    id: 'response.InternalError.2',
    at: '/components/responses/InternalError/description',
    text: 'Safe to retry with backoff; report it if it persists.',
    unobservable: 'a correct request cannot make a correct service fail',
  },
  // /components/responses/IdempotencyConflict/description
  {
    id: 'response.IdempotencyConflict.1',
    at: '/components/responses/IdempotencyConflict/description',
    text: 'The `Idempotency-Key` was already used with a different request body.',
  },
  // /components/responses/PayloadTooLarge/description
  {
    id: 'response.PayloadTooLarge.1',
    at: '/components/responses/PayloadTooLarge/description',
    text: 'The request body is larger than 1 MiB.',
  },
  // /components/responses/UnsupportedMediaType/description
  {
    id: 'response.UnsupportedMediaType.1',
    at: '/components/responses/UnsupportedMediaType/description',
    text: 'The request body is not sent as `application/json`.',
  },
  // /components/responses/NotModified/description
  {
    id: 'response.NotModified.1',
    at: '/components/responses/NotModified/description',
    text: 'The resource still has the `ETag` sent in `If-None-Match`; no body.',
  },
  // /components/responses/NotFound/description
  {
    id: 'response.NotFound.1',
    at: '/components/responses/NotFound/description',
    text: 'No resource has this identifier (it never existed or was deleted).',
  },
  // /components/responses/PreconditionFailed/description
  {
    id: 'response.PreconditionFailed.1',
    at: '/components/responses/PreconditionFailed/description',
    text: "The `If-Match` header does not match the resource's current `ETag`; fetch it again and retry.",
  },
  // /components/responses/ReceiverRetry/description
  {
    id: 'response.ReceiverRetry.1',
    at: '/components/responses/ReceiverRetry/description',
    text: 'Any other answer (`3xx`, `4xx` other than `410`, `5xx`), or none within 10 seconds, is a failed attempt and is retried on the schedule described in *Delivery and retries*.',
  },
  {
    id: 'response.ReceiverRetry.2',
    at: '/components/responses/ReceiverRetry/description',
    text: 'Redirects are not followed.',
  },
  {
    id: 'response.ReceiverRetry.3',
    at: '/components/responses/ReceiverRetry/description',
    text: 'The body is ignored.',
    informative: true,
  },
  // /components/responses/ReceiverAccepted/description
  {
    id: 'response.ReceiverAccepted.1',
    at: '/components/responses/ReceiverAccepted/description',
    text: 'Any `2xx` answered within 10 seconds acknowledges the delivery; the body is ignored.',
  },
  {
    id: 'response.ReceiverAccepted.2',
    at: '/components/responses/ReceiverAccepted/description',
    text: 'Answer fast and process asynchronously.',
    informative: true,
  },
  // /components/responses/ReceiverGone/description
  {
    id: 'response.ReceiverGone.1',
    at: '/components/responses/ReceiverGone/description',
    text: '`410 Gone` unsubscribes: the service disables the webhook at once (`disabled_reason: endpoint_gone`) and sends it nothing more until it is re-enabled.',
  },
  {
    id: 'response.ReceiverGone.2',
    at: '/components/responses/ReceiverGone/description',
    text: 'The body is ignored; a problem document is a good answer for humans reading receiver logs.',
    informative: true,
  },
  // /servers/0/description
  {
    id: 'servers-0.1',
    at: '/servers/0/description',
    text: 'Production (HTTPS only).',
    unobservable: "the production address is the operator's: the kit checks the --base-url it is given",
  },
  { id: 'servers-0.2', at: '/servers/0/description', text: 'The default of generated clients and of the code samples.', informative: true },
  // /servers/1/description
  {
    id: 'servers-1.1',
    at: '/servers/1/description',
    text: 'The reference server (`npm start`), stateful, with an embedded database.',
    informative: true,
  },
  // /servers/2/description
  {
    id: 'servers-2.1',
    at: '/servers/2/description',
    text: 'The Prism mock (`npm run mock`), stateless, answers with the examples.',
    informative: true,
  },
  // /webhooks/finding.created/post/parameters/4/description
  {
    id: 'findingCreated.4',
    at: '/webhooks/finding.created/post/parameters/4/description',
    text: "The event type, the same as the body's `event`.",
  },
  // /webhooks/finding.resolved/post/parameters/4/description
  {
    id: 'findingResolved.5',
    at: '/webhooks/finding.resolved/post/parameters/4/description',
    text: "The event type, the same as the body's `event`.",
  },
  // /webhooks/compliance.changed/post/parameters/4/description
  {
    id: 'complianceChanged.4',
    at: '/webhooks/compliance.changed/post/parameters/4/description',
    text: "The event type, the same as the body's `event`.",
  },
  // /webhooks/device.connected/post/parameters/4/description
  {
    id: 'deviceConnected.4',
    at: '/webhooks/device.connected/post/parameters/4/description',
    text: "The event type, the same as the body's `event`.",
  },
  // /webhooks/device.disconnected/post/parameters/4/description
  {
    id: 'deviceDisconnected.4',
    at: '/webhooks/device.disconnected/post/parameters/4/description',
    text: "The event type, the same as the body's `event`.",
  },
  // /webhooks/scan.completed/post/parameters/4/description
  {
    id: 'scanCompleted.4',
    at: '/webhooks/scan.completed/post/parameters/4/description',
    text: "The event type, the same as the body's `event`.",
  },
  // /components/parameters/StandardSignatureHeader/description
  {
    id: 'param.StandardSignatureHeader.1',
    at: '/components/parameters/StandardSignatureHeader/description',
    text: "`v1,` followed by the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the webhook's secret (UTF-8): the Standard Webhooks signature.",
  },
  {
    id: 'param.StandardSignatureHeader.2',
    at: '/components/parameters/StandardSignatureHeader/description',
    text: 'One space-separated entry per valid secret, newest first: two during the 24 hours after the secret was replaced, one otherwise.',
  },
  {
    id: 'param.StandardSignatureHeader.3',
    at: '/components/parameters/StandardSignatureHeader/description',
    text: 'Absent when the webhook has no secret.',
  },
  {
    id: 'param.StandardSignatureHeader.4',
    at: '/components/parameters/StandardSignatureHeader/description',
    text: 'Verify it (any entry matching is enough) in constant time before trusting the body.',
    informative: true,
  },
  // /components/parameters/StandardIdHeader/description
  {
    id: 'param.StandardIdHeader.1',
    at: '/components/parameters/StandardIdHeader/description',
    text: 'The Standard Webhooks message id: the same value as `X-Service-Delivery`, so identical on every retry of the delivery.',
  },
  {
    id: 'param.StandardIdHeader.2',
    at: '/components/parameters/StandardIdHeader/description',
    text: 'Part of what `webhook-signature` signs.',
  },
  // /components/parameters/StandardTimestampHeader/description
  {
    id: 'param.StandardTimestampHeader.1',
    at: '/components/parameters/StandardTimestampHeader/description',
    text: 'When this attempt was sent, in Unix seconds (a retry carries its own time).',
  },
  {
    id: 'param.StandardTimestampHeader.2',
    at: '/components/parameters/StandardTimestampHeader/description',
    text: 'Part of what `webhook-signature` signs; refuse a delivery whose timestamp is more than 5 minutes from your clock, either way.',
  },
  // /components/responses/ServiceUnavailable/description
  {
    id: 'response.ServiceUnavailable.1',
    at: '/components/responses/ServiceUnavailable/description',
    text: "The service cannot serve the request for a moment: `service-unavailable` when it cannot reach its database (restarting, not answering within the service's time limit, refusing connections), `storage-full` when it has no room to store the change.",
    unobservable: 'needs the target unable to reach its database or out of storage; the response audit judges any 503 that occurs',
  },
  {
    id: 'response.ServiceUnavailable.2',
    at: '/components/responses/ServiceUnavailable/description',
    text: 'Wait `Retry-After` seconds and retry; a `POST` answered `503` may have been applied, so retry it with the same `Idempotency-Key`.',
    informative: true,
  },
] as const satisfies readonly CatalogueEntry[];

/** The id of a rule of the catalogue: a misspelt one does not compile. */
export type RuleId = (typeof CATALOGUE)[number]['id'];
