// Proof that the kit bites: the reference server behind a proxy that breaks one thing at a time,
// and the kit must fail naming the right operation (or webhook) and check. Each fault runs only
// the checks that concern it, so the whole file stays a few seconds long.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../lib/document.ts';
import { SIGNATURE_HEADER } from '../../lib/signing.ts';
import { coverage } from './kit/coverage.ts';
import { planChecks } from './kit/plan.ts';
import { runKit, type CheckResult } from './kit/runner.ts';
import { buildModel } from './kit/spec.ts';
import { editJson, startFaultProxy, type Fault } from './fault-proxy.ts';
import { startReferenceTarget, type ReferenceTarget } from './reference-target.ts';

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

/** Runs the named checks of one operation or webhook through a faulty proxy; returns the results. */
async function runThroughFault(fault: Fault, subject: string, checks: string[]): Promise<CheckResult[]> {
  const proxy = await startFaultProxy(reference.server.url, fault);
  try {
    const run = await runKit(
      { ...reference.kit, baseUrl: proxy.url, eventTimeoutMs: 5_000 },
      { only: (planned) => planned.subjects[0]!.startsWith(`${subject} (`) && checks.includes(planned.check) },
    );
    expect(run.results.length, `checks selected for ${subject}`).toBe(checks.length);
    return run.results;
  } finally {
    await proxy.close();
  }
}

function failureOf(results: CheckResult[], check: string): string {
  const result = results.find((r) => r.check === check);
  expect(result?.outcome, `${check} should fail`).toBe('failed');
  return result!.error!;
}

describe('the kit fails on a broken implementation', () => {
  it('(a) a required field dropped from a response: getPolicy, response-schema', async () => {
    const results = await runThroughFault(dropPolicyName, 'getPolicy', ['success-response']);
    const error = failureOf(results, 'success-response');
    expect(error).toContain('getPolicy (GET /v1/policies/{id}) — check "success-response" failed');
    expect(error).toContain('[response-schema]');
    expect(error).toMatch(/must have required property 'name'/);
    expect(error).toContain('request:  GET ');
  });

  it('(b) a field of the wrong type: listFindings, response-schema with the offending value', async () => {
    const results = await runThroughFault(
      {
        response: (request, response) =>
          request.method === 'GET' && request.path.startsWith('/v1/findings?') && response.status === 200
            ? editJson(response, (json) => {
                const first = (json.data as Record<string, unknown>[])[0];
                if (first) first.severity = 3;
              })
            : undefined,
      },
      'listFindings',
      ['success-response'],
    );
    const error = failureOf(results, 'success-response');
    expect(error).toContain('listFindings (GET /v1/findings) — check "success-response" failed');
    expect(error).toMatch(/\/data\/0\/severity must be equal to one of the allowed values.*\(value: 3\)/);
  });

  it('(c) Location omitted on create: createWebhook, headers', async () => {
    const results = await runThroughFault(
      {
        response: (request, response) => {
          if (request.method !== 'POST' || request.path !== '/v1/webhooks' || response.status !== 201) return undefined;
          const { location: _dropped, ...headers } = response.headers;
          return { ...response, headers };
        },
      },
      'createWebhook',
      ['success-response'],
    );
    const error = failureOf(results, 'success-response');
    expect(error).toContain('createWebhook (POST /v1/webhooks) — check "success-response" failed');
    expect(error).toContain('[headers] required header Location is missing');
  });

  it('(d) 500 for a bad body: createPolicy, invalid-body names the generated case', async () => {
    const results = await runThroughFault(
      {
        response: (request, response) =>
          request.method === 'POST' && request.path === '/v1/policies' && response.status === 400
            ? editJson({ ...response, status: 500 }, (json) => {
                json.type = 'https://secmon.dev/problems/internal-error';
                json.title = 'Internal error';
                json.status = 500;
                delete json.errors;
              })
            : undefined,
      },
      'createPolicy',
      ['invalid-body'],
    );
    const error = failureOf(results, 'invalid-body');
    expect(error).toContain('createPolicy (POST /v1/policies) — check "invalid-body" failed');
    expect(error).toMatch(/expected 4xx \(invalid body: \/\S* .+\), got 500/);
    expect(error).toContain('body: ');
  });

  it('(e) a wrongly signed event: findingCreated, delivery signature', async () => {
    const results = await runThroughFault(
      { delivery: (headers, body) => ({ headers: { ...headers, [SIGNATURE_HEADER.toLowerCase()]: `sha256=${'0'.repeat(64)}` }, body }) },
      'findingCreated',
      ['delivery'],
    );
    const error = failureOf(results, 'delivery');
    expect(error).toContain('findingCreated (webhook finding.created) — check "delivery" failed');
    expect(error).toContain('[signature] X-Service-Signature does not verify');
  });

  it('(e) an unsigned event from a webhook with a secret: findingResolved, delivery signature', async () => {
    const results = await runThroughFault(
      {
        delivery: (headers, body) => {
          const { [SIGNATURE_HEADER.toLowerCase()]: _dropped, ...rest } = headers;
          return { headers: rest, body };
        },
      },
      'findingResolved',
      ['delivery'],
    );
    expect(failureOf(results, 'delivery')).toContain('[signature] X-Service-Signature is missing on a signed webhook');
  });

  it('(e) a body re-serialised after signing: complianceChanged, delivery signature', async () => {
    const results = await runThroughFault(
      { delivery: (headers, body) => ({ headers, body: Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8')), null, 1)) }) },
      'complianceChanged',
      ['delivery'],
    );
    expect(failureOf(results, 'delivery')).toContain('does not verify against the raw body');
  });
});

describe('npm run contract against a broken implementation', () => {
  it('exits 1, prints the operation, check, request and schema error, and writes a JUnit failure', async () => {
    const proxy = await startFaultProxy(reference.server.url, dropPolicyName);
    const scratch = mkdtempSync(join(tmpdir(), 'contract-cli-'));
    const junit = join(scratch, 'junit.xml');
    try {
      const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
      const child = spawn(
        process.execPath,
        [cli, '--base-url', proxy.url, '--api-key', reference.kit.apiKey, '--read-key', reference.kit.readKey!, '--cases', '4', '--report', junit],
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } },
      );
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
      expect(report).toContain('getPolicy (GET /v1/policies/{id}) › success-response');
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
    const allPassed: CheckResult[] = plan.map((p) => ({ id: p.id, check: p.check, subjects: p.subjects, exercisesSuccess: p.exercisesSuccess, outcome: 'passed', ms: 0 }));
    const report = coverage(model, allPassed);
    expect(report.passed).toBe(false);
    expect(report.rows.filter((row) => row.gap).map((row) => [row.subject, row.gap])).toEqual([
      ['evaluatePolicy (POST /v1/policies/{id}/evaluate)', 'no check could be derived for it from the document'],
    ]);
  });

  it('passes for the document as it is when every derived check passes', () => {
    const model = buildModel(loadDocument());
    const plan = planChecks(model, { profile: 'stateful', hasReadKey: true });
    const allPassed: CheckResult[] = plan.map((p) => ({ id: p.id, check: p.check, subjects: p.subjects, exercisesSuccess: p.exercisesSuccess, outcome: 'passed', ms: 0 }));
    expect(coverage(model, allPassed).passed).toBe(true);
  });
});
