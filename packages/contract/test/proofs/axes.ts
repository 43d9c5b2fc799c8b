// Proofs of the checks that exercise the behaviour space's cells no other check reached: each
// fault breaks a rule only in a cell those checks reach (a boundary, a media-type spelling, a read
// after a change, an error answer, the clock, a retry's answer) and passes everywhere else.

import { answer, field, header, problemAnswer, requestBody } from '../fault-dsl.ts';
import type { Fault } from '../fault-proxy.ts';
import { failedAuthWindows } from '../legal-variations.ts';
import type { RuleProof } from '../prove.ts';

const CREATE_POLICY = 'createPolicy (POST /v1/policies)';
const CREATE_FINDING = 'createFinding (POST /v1/findings)';
const CREATE_WEBHOOK = 'createWebhook (POST /v1/webhooks)';

/** A webhook URL at the document's maximum length refused, as a limit counted one short would. */
const longestUrlRefused = answer({ method: 'POST', path: /^\/v1\/webhooks$/ }, (request) => {
  const url = (JSON.parse(request.body.toString('utf8') || '{}') as { url?: unknown }).url;
  return typeof url === 'string' && url.length === 2048 ? problemAnswer(400, 'validation-error') : undefined;
});

/** Pointers of unknown members sent unescaped, as a validator that joins names into paths would. */
const pointerUnescaped = field({ status: 400 }, (json) => {
  for (const error of (json.errors as { pointer: string }[] | undefined) ?? [])
    error.pointer = error.pointer.replace(/~1/g, '/').replace(/~0/g, '~');
});

/** A timestamp with an offset taken as the same instant in UTC instead of refused. */
const offsetAccepted = requestBody({ method: 'POST', path: /^\/v1\/findings$/ }, (json) => {
  for (const name of ['first_seen_at', 'last_seen_at'])
    if (typeof json[name] === 'string' && /[+-]\d\d:\d\d$/.test(json[name] as string))
      json[name] = new Date(json[name] as string).toISOString().replace('.000Z', 'Z');
});

/** `application/json` with a parameter (`; charset=utf-8`) refused as another media type. */
const charsetRefused = answer({}, (request, response) => {
  if (!/;/.test(request.headers['content-type'] ?? '')) return undefined;
  const problem = {
    type: 'https://secmon.dev/problems/unsupported-media-type',
    title: 'Unsupported media type',
    status: 415,
    detail: 'Send the body as application/json.',
    instance: request.path,
  };
  return {
    status: 415,
    headers: { ...response.headers, 'content-type': 'application/problem+json' },
    body: Buffer.from(JSON.stringify(problem)),
  };
});

/** `t` counting down ten times as fast as the clock. */
const fastClock = (): Fault => {
  const started = Date.now();
  return header({}, 'ratelimit', (value) =>
    value?.replace(/t=(\d+)/, (_, t: string) => `t=${Math.max(0, Number(t) * 10 - Math.round((Date.now() - started) / 100))}`),
  );
};

/** A redirect answered to a retry reported as a success. */
const redirectSucceeds = field({ method: 'GET', path: /^\/v1\/webhooks\/whk_/, status: 200 }, (json) => {
  const last = json.last_delivery as { status_code?: number; succeeded?: boolean } | null;
  if (last && last.status_code !== undefined && last.status_code >= 300 && last.status_code < 400) last.succeeded = true;
});

export const PROOFS: readonly RuleProof[] = [
  {
    name: 'a page of 100, the documented maximum, refused',
    fault: answer({ method: 'GET', path: /^\/v1\/findings\?(.*&)?limit=100(&|$)/ }, () => problemAnswer(400, 'validation-error')),
    subject: 'listFindings (GET /v1/findings)',
    check: 'boundary-inputs',
    rule: 'limits.2',
  },
  {
    name: 'a webhook URL at its maximum length refused',
    fault: longestUrlRefused,
    subject: CREATE_WEBHOOK,
    check: 'boundary-inputs',
    rule: 'limits.2',
  },
  {
    name: 'a repeated event type taken once instead of refused',
    fault: requestBody({ method: 'POST', path: /^\/v1\/webhooks$/ }, (json) => {
      if (Array.isArray(json.events)) json.events = [...new Set(json.events)];
    }),
    subject: CREATE_WEBHOOK,
    check: 'boundary-inputs',
    rule: 'errors.5',
  },
  {
    name: 'frameworks beyond their maximum count cut to it instead of refused',
    fault: requestBody({ method: 'POST', path: /^\/v1\/policies$/ }, (json) => {
      if (Array.isArray(json.frameworks)) json.frameworks = json.frameworks.slice(0, 32);
    }),
    subject: CREATE_POLICY,
    check: 'boundary-inputs',
    rule: 'errors.5',
  },
  {
    name: 'pointers of unknown members not escaped',
    fault: pointerUnescaped,
    subject: CREATE_POLICY,
    check: 'boundary-inputs',
    rule: 'schema.ProblemError.2',
  },
  {
    name: 'a timestamp with an offset accepted',
    fault: offsetAccepted,
    subject: CREATE_FINDING,
    check: 'boundary-inputs',
    rule: 'limits.3',
  },
  {
    name: 'application/json with a charset refused with 415',
    fault: charsetRefused,
    subject: CREATE_POLICY,
    check: 'boundary-inputs',
    rule: 'errors.18',
  },
  {
    name: "RateLimit's t faster than the clock",
    fault: fastClock,
    subject: 'listPolicies (GET /v1/policies)',
    check: 'rate-limit-clock',
    rule: 'header.RateLimit.1',
  },
  {
    name: 'failed authentication with another scheme not counted',
    fault: () => failedAuthWindows({ limit: 8, seconds: 60, uncounted: /^Basic /i }),
    subject: 'listPolicies (GET /v1/policies)',
    check: 'failed-auth-counting',
    rule: 'rate-limits.5',
  },
  ...(
    [
      ['Retry-After in milliseconds, far past the window', (left: number) => left * 1000],
      ['Retry-After the whole window whatever part of it has passed', () => 60],
      ['Retry-After of one second while the window runs on', () => 1],
    ] as const
  ).map(
    ([name, retryAfter]): RuleProof => ({
      name: `a failed-authentication 429's ${name}`,
      fault: () => failedAuthWindows({ limit: 8, seconds: 60, retryAfter }),
      subject: 'listPolicies (GET /v1/policies)',
      check: 'failed-auth-counting',
      rule: 'rate-limits.5',
    }),
  ),
  {
    name: 'a redirect at a retry reported as succeeded',
    fault: redirectSucceeds,
    subject: 'findingCreated (webhook finding.created)',
    check: 'receiver-answers',
    rule: 'schema.LastDelivery.3',
    options: { skipRetryTiming: "the proofs' reference server compresses its retry schedule" },
  },
];
