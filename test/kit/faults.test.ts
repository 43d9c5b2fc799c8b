// Proof that the kit bites: the reference server behind a proxy that breaks one thing at a time,
// and the kit must fail naming the right operation (or webhook) and check. Each fault runs only
// the checks that concern it, so the whole file stays a few seconds long.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadDocument } from '../../lib/document.ts';
import { SIGNATURE_HEADER } from '../../lib/signing.ts';
import type { KitOptions } from '../contract/kit/context.ts';
import { coverage } from '../contract/kit/coverage.ts';
import { planChecks } from '../contract/kit/plan.ts';
import type { CheckName } from '../contract/kit/registry.ts';
import { buildModel } from '../contract/kit/spec.ts';
import { editJson, type Fault, type ProxiedResponse, startFaultProxy } from './fault-proxy.ts';
import { expectRuleNamed, failureUnder as failureOf } from './prove.ts';
import { contents, type ReferenceTarget, startReferenceTarget } from './reference-target.ts';
import { CREATED, RULE_FAULTS } from './rule-faults.ts';
import { passedResults } from './suite.ts';

let reference: ReferenceTarget;

beforeAll(async () => {
  reference = await startReferenceTarget();
});

afterAll(async () => {
  await reference?.server.close();
});

const ITEM = /^\/v1\/policies\/pol_[^/?]+$/;

const dropPolicyName: Fault = {
  response: (request, response) =>
    request.method === 'GET' && ITEM.test(request.path) && response.status === 200
      ? editJson(response, (json) => delete json.name)
      : undefined,
};

/** Runs one check of one operation or webhook through a faulty proxy (the shared reference server by default). */
const failureUnder = (fault: Fault, subject: string, check: CheckName, options: Partial<KitOptions> = {}, target = reference) =>
  failureOf(target, fault, subject, check, options);

const findingSeverityAsNumber: Fault = {
  response: (request, response) =>
    request.method === 'GET' && request.path.startsWith('/v1/findings?') && response.status === 200
      ? editJson(response, (json) => {
          const first = (json.data as Record<string, unknown>[])[0];
          if (first) first.severity = 3;
        })
      : undefined,
};

const noLocationOnWebhookCreate: Fault = {
  response: (request, response) => {
    if (request.method !== 'POST' || request.path !== '/v1/webhooks' || response.status !== 201) return undefined;
    const { location: _dropped, ...headers } = response.headers;
    return { ...response, headers };
  },
};

const internalErrorForBadPolicy: Fault = {
  response: (request, response) =>
    request.method === 'POST' && request.path === '/v1/policies' && response.status === 400
      ? editJson({ ...response, status: 500 }, (json) => {
          Object.assign(json, { type: 'https://secmon.dev/problems/internal-error', title: 'Internal error', status: 500 });
          delete json.errors;
        })
      : undefined,
};

const severityFilterIgnored: Fault = {
  response: (request, response) =>
    request.method === 'GET' && /^\/v1\/findings\?(.*&)?severity=/.test(request.path) && response.status === 200
      ? editJson(response, (json) => {
          const asked = new URL(request.path, 'http://x').searchParams.get('severity');
          for (const item of json.data as Record<string, unknown>[]) item.severity = asked === 'info' ? 'critical' : 'info';
        })
      : undefined,
};

const statusFilterIgnored: Fault = {
  path: (method, path) => (method === 'GET' && path.startsWith('/v1/findings?') ? path.replace(/([?&])status=[^&]*&?/, '$1') : path),
};

const versionSkips: Fault = {
  response: (request, response) =>
    request.method === 'PUT' && ITEM.test(request.path) && response.status === 200
      ? editJson(response, (json) => {
          json.version = Number(json.version) + 1;
        })
      : undefined,
};

const noAllowOn405: Fault = {
  response: (_request, response) => {
    if (response.status !== 405) return undefined;
    const { allow: _dropped, ...headers } = response.headers;
    return { ...response, headers };
  },
};

const unmarkedReplay: Fault = {
  response: (request, response) => {
    if (request.method !== 'POST' || request.path !== '/v1/policies' || response.status !== 201) return undefined;
    const { 'idempotent-replayed': _dropped, ...headers } = response.headers;
    return { ...response, headers };
  },
};

/** A cache in front of the service: what was created stays readable after its delete. */
function staleCacheAfterDelete(): Fault {
  const cache = new Map<string, ProxiedResponse>();
  return {
    response: (request, response) => {
      if (request.method === 'POST' && response.status === 201 && response.headers.location)
        cache.set(new URL(response.headers.location, 'http://x').pathname, response);
      const cached = cache.get(request.path);
      return request.method === 'GET' && response.status === 404 && cached ? { ...cached, status: 200 } : undefined;
    },
  };
}

/** A lagging read replica: the first read of a new resource does not find it yet. */
function readLagsBehindCreate(): Fault {
  const fresh = new Set<string>();
  return {
    response: (request, response) => {
      if (request.method === 'POST' && response.status === 201 && response.headers.location)
        fresh.add(new URL(response.headers.location, 'http://x').pathname);
      if (request.method !== 'GET' || !fresh.delete(request.path)) return undefined;
      return editJson({ ...response, status: 404 }, (json) => {
        for (const key of Object.keys(json)) delete json[key];
        Object.assign(json, {
          type: 'https://secmon.dev/problems/not-found',
          title: 'Resource not found',
          status: 404,
          detail: 'No such policy.',
          instance: request.path,
        });
      });
    },
  };
}

const SIGNATURE = SIGNATURE_HEADER.toLowerCase();
const wrongSignature: Fault = { delivery: (headers, body) => ({ headers: { ...headers, [SIGNATURE]: `sha256=${'0'.repeat(64)}` }, body }) };
const noSignature: Fault = {
  delivery: (headers, body) => {
    const { [SIGNATURE]: _dropped, ...rest } = headers;
    return { headers: rest, body };
  },
};
const reserialisedBody: Fault = {
  delivery: (headers, body) => ({ headers, body: Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8')), null, 1)) }),
};

// Each fault, the operation or webhook and the check that must catch it, and what its report must say.
// The report names the operation that misbehaved, which may be another than the one the check is filed under.
const FAULTS: [name: string, fault: Fault, subject: string, check: CheckName, says: (string | RegExp)[], reportedOn?: string][] = [
  [
    '(a) a required field dropped from a response',
    dropPolicyName,
    'getPolicy (GET /v1/policies/{id})',
    'success-response',
    ['[response-schema]', /\/ must have required property 'name'/, 'request:  GET '],
  ],
  [
    '(b) a field of the wrong type',
    findingSeverityAsNumber,
    'listFindings (GET /v1/findings)',
    'success-response',
    [/\/data\/0\/severity must be equal to one of the allowed values.*\(value: 3\)/],
  ],
  [
    '(c) Location omitted on create',
    noLocationOnWebhookCreate,
    'createWebhook (POST /v1/webhooks)',
    'success-response',
    ['[headers] required header Location is missing'],
  ],
  [
    '(d) 500 for a bad body',
    internalErrorForBadPolicy,
    'createPolicy (POST /v1/policies)',
    'invalid-body',
    [/expected 4xx \(invalid body: \/\S* .+\), got 500/, 'body: '],
  ],
  [
    '(g) an Idempotency-Key replay without Idempotent-Replayed',
    unmarkedReplay,
    'createPolicy (POST /v1/policies)',
    'idempotency',
    ['the replay carries Idempotent-Replayed: null, not true'],
  ],
  [
    '(f) a list filter that does not filter',
    severityFilterIgnored,
    'listFindings (GET /v1/findings)',
    'valid-input',
    [/filter severity=\w+ returned an item with severity=/],
  ],
  [
    '(g) a status filter that is ignored',
    statusFilterIgnored,
    'listFindings (GET /v1/findings)',
    'valid-input',
    [/filter status=\w+ returned an item with status=/],
  ],
  [
    '(h) version up by two on one update',
    versionSkips,
    'createPolicy (POST /v1/policies)',
    'lifecycle',
    ['version went from 1 to 3 on one update; it must go up by exactly one'],
    'updatePolicy (PUT /v1/policies/{id})',
  ],
  [
    '(i) 405 without Allow',
    noAllowOn405,
    'listPolicies (GET /v1/policies)',
    'unsupported-method',
    ['Allow is ""; the documented methods are GET, POST'],
  ],
  [
    '(j) a deleted resource still readable',
    staleCacheAfterDelete(),
    'deletePolicy (DELETE /v1/policies/{id})',
    'use-after-delete',
    ['expected 404 (read after delete), got 200'],
    'getPolicy (GET /v1/policies/{id})',
  ],
  [
    '(k) a new resource not readable at once',
    readLagsBehindCreate(),
    'createPolicy (POST /v1/policies)',
    'available-after-create',
    [/expected 200 \(read right after creating pol_\w+\), got 404/],
    'getPolicy (GET /v1/policies/{id})',
  ],
  [
    '(e) a wrongly signed event',
    wrongSignature,
    'findingCreated (webhook finding.created)',
    'delivery',
    [/\[signature\] rule delivery-headers\.1: X-Service-Signature does not verify/],
  ],
  [
    '(e) an unsigned event from a webhook with a secret',
    noSignature,
    'findingResolved (webhook finding.resolved)',
    'delivery',
    [/\[signature\] rule delivery-headers\.1: X-Service-Signature is missing on a signed webhook/],
  ],
  [
    '(e) a body re-serialised after signing',
    reserialisedBody,
    'complianceChanged (webhook compliance.changed)',
    'delivery',
    ['does not verify against the raw body'],
  ],
];

describe('the kit fails on a broken implementation', () => {
  for (const [name, fault, subject, check, says, reportedOn = subject] of FAULTS) {
    it(`${name}: ${subject.split(' ')[0]} fails ${check}`, async () => {
      const error = await failureUnder(fault, subject, check);
      expect(error).toContain(`${reportedOn} — check "${check}" failed`);
      for (const text of says) {
        if (typeof text === 'string') expect(error).toContain(text);
        else expect(error).toMatch(text);
      }
    });
  }
});

// Faults that break a rule the document states only in words (rule-faults.ts); each is caught by
// the check that judges that rule, and the report names the rule (id and sentence).
const retryAfterIgnored: Fault = {
  deliveryAnswer: ({ status, headers }) => {
    const { 'retry-after': _dropped, ...rest } = headers;
    return { status, headers: rest };
  },
};

describe('the kit fails on an implementation that breaks a rule the document states in words', () => {
  for (const [name, fault, subject, check, rule, options] of RULE_FAULTS) {
    it(`${name}: ${check} names rule ${rule}`, async () => {
      expectRuleNamed(await failureUnder(fault, subject, check, options), check, rule);
    });
  }

  it('a failed-authentication 429 without Retry-After: unknown-key-401 names rule rate-limits.5', async () => {
    const throttled = await startReferenceTarget(undefined, undefined, { authFailuresPerMinute: 1 });
    try {
      for (let i = 0; i < 2; i++) await fetch(`${throttled.server.url}/v1/policies`);
      const noRetryAfter: Fault = {
        response: (_request, response) =>
          response.status === 429
            ? { ...response, headers: Object.fromEntries(Object.entries(response.headers).filter(([name]) => name !== 'retry-after')) }
            : undefined,
      };
      const error = await failureUnder(noRetryAfter, 'listPolicies (GET /v1/policies)', 'unknown-key-401', {}, throttled);
      expect(error).toMatch(/rule rate-limits\.5: a 429 for failed authentication lacks retry-after/);
    } finally {
      await throttled.server.close();
    }
  });

  it('a Retry-After longer than the first wait ignored: delivery-retry names rule delivery-and-retries.4', async () => {
    const documented = await startReferenceTarget(undefined, 1);
    try {
      const error = await failureUnder(retryAfterIgnored, CREATED, 'delivery-retry', {}, documented);
      expect(error).toMatch(
        /rule delivery-and-retries\.4: a receiver asked for Retry-After: \d+ \(longer than the first wait\) and the retry came after \d+\.\d s/,
      );
    } finally {
      await documented.server.close();
    }
  }, 60_000);
});

describe('npm run contract against a broken implementation', () => {
  it('exits 1, prints the operation, check, request and schema error, and writes a JUnit failure', async () => {
    const proxy = await startFaultProxy(reference.server.url, dropPolicyName);
    const before = await contents(reference.server.url);
    const scratch = mkdtempSync(join(tmpdir(), 'contract-cli-'));
    const junit = join(scratch, 'junit.xml');
    try {
      const cli = fileURLToPath(new URL('../contract/cli.ts', import.meta.url));
      const child = spawn(
        process.execPath,
        [
          cli,
          '--base-url',
          proxy.url,
          '--api-key',
          reference.kit.apiKey,
          '--read-key',
          reference.kit.readKey!,
          '--cases',
          '4',
          '--report',
          junit,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } },
      );
      // On a time-out the CLI (and the suite it runs, to which it passes the signal on) must not outlive the test.
      onTestFinished(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGTERM')));
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, output).toBe(1);
      expect(output).toContain('getPolicy (GET /v1/policies/{id}) — check "success-response" failed');
      expect(output).toMatch(/request: {2}GET http:\/\/127\.0\.0\.1:\d+\/v1\/policies\/pol_/);
      expect(output).toMatch(/\/ must have required property 'name'/);
      expect(output).toMatch(/getPolicy \(GET \/v1\/policies\/\{id\}\) +✗/);
      expect(output).toContain('gate FAILED');
      const report = readFileSync(junit, 'utf8');
      expect(report).toMatch(/<testsuites [^>]*failures="[1-9]/);
      expect(report).toMatch(/<testcase classname="getPolicy" name="success-response" time="[\d.]+">\n\s*<failure message="getPolicy/);
      expect([...report.matchAll(/<testcase [^>]*>/g)].join('\n')).not.toMatch(/https?:/);
      // A failing run cleans up too.
      expect(await contents(reference.server.url)).toEqual(before);
    } finally {
      await proxy.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the coverage gate', () => {
  it('fails for an operation added to the document that the kit derives no checks for', () => {
    const doc = loadDocument();
    doc.paths!['/v1/policies/{id}/evaluate'] = {
      post: { operationId: 'evaluatePolicy', responses: { '202': { description: 'Evaluation queued.' } } },
    };
    const model = buildModel(doc);
    const plan = planChecks(model, { profile: 'stateful', hasReadKey: true });
    const allPassed = passedResults(plan);
    const report = coverage(model, allPassed);
    expect(report.passed).toBe(false);
    expect(report.rows.filter((row) => row.gap).map((row) => [row.subject, row.gap])).toEqual([
      ['evaluatePolicy (POST /v1/policies/{id}/evaluate)', 'no check could be derived for it from the document'],
    ]);
  });

  it('passes for the document as it is when every derived check passes', () => {
    const model = buildModel(loadDocument());
    const plan = planChecks(model, { profile: 'stateful', hasReadKey: true });
    const allPassed = passedResults(plan);
    expect(coverage(model, allPassed).passed).toBe(true);
  });
});
