// Problem details as the document's *Errors* section states them: each problem type of its table
// provoked once where a client can provoke it, answered with that type and status (the audit of
// every answer, response-audit.ts, reads the same table).
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import type { Exchange } from '../http.ts';
import { type RawAnswer, rawRequest } from '../raw-http.ts';
import { type StatedRule, sentenceRule } from '../rules/stated.ts';
import type { OperationModel } from '../spec.ts';
import { documentedResources } from './shared/documented.ts';
import { problemBreaks, rawProblemBreaks } from './shared/problem-answers.ts';
import { problemTable } from './shared/problem-table.ts';
import { errorPointers } from './shared/request-pointers.ts';
import { startRequestTimeoutProbe } from './shared/request-timeout-probe.ts';
import { bodyWith, crudNamed, findingUpdate, type Json } from './shared/rule-support.ts';

const RULES = [
  'authentication.3',
  'errors.2',
  'errors.4',
  'errors.5',
  'errors.6',
  'errors.7',
  'errors.8',
  'errors.9',
  'errors.10',
  'errors.11',
  'errors.12',
  'errors.13',
  'errors.14',
  'errors.15',
  'errors.16',
  'errors.17',
  'errors.18',
  'errors.20',
  'createWebhook.3',
  'schema.FindingStatus.7',
  'schema.Problem.4',
  'schema.Problem.8',
  'schema.ProblemError.2',
  'schema.WebhookUrl.2',
  'errors.1',
] as const;
type Rule = (typeof RULES)[number];

export const problemCatalogueCheck = defineCheck({
  name: 'problem-catalogue',
  column: 'probs',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 19, perCase: 0 },
  instances: (model) => {
    const found = documentedResources(model);
    if (!found) return [];
    const { policies, findings, webhooks } = found;
    return [
      {
        subjects: [policies.list, policies.create, policies.read, policies.update, policies.delete, findings.update, webhooks.create].map(
          (op) => op.label,
        ),
        run: (ctx, check) => problemCatalogue(ctx, check),
        prepare: startRequestTimeoutProbe,
      },
    ];
  },
});

/** Types a client cannot provoke from outside, or that another check provokes. */
const NOT_PROVOKED: Record<string, string> = {
  'internal-error': 'a correct service does not fail on a correct request',
  'rate-limited': 'provoked by the rate-limit-429 check',
  // Judged by the response audit whenever a target under a database fault answers them.
  'service-unavailable': 'needs the target unable to reach its database',
  'storage-full': 'needs the target out of storage',
};

/** `problem-catalogue`: every problem type of the table that a client can provoke, provoked once. */
async function problemCatalogue(ctx: KitContext, check: Check<Rule>): Promise<'passed' | { note: string }> {
  const table = problemTable(ctx);
  const row = (type: string) => table.find((r) => r.type === type);
  const [policies, findings, webhooks] = [crudNamed(ctx, 'policies'), crudNamed(ctx, 'findings'), crudNamed(ctx, 'webhooks')];
  const base = ctx.http.baseUrl;
  const path = new URL(base).pathname.replace(/\/+$/, '');
  const host = new URL(base).host;
  const slow = row('request-timeout') ? startRequestTimeoutProbe(ctx) : undefined;
  const provoked: string[] = [];
  const notes: string[] = [];

  const expectType = (op: OperationModel, exchange: Exchange, type: string, what: string, instance?: string, also: StatedRule[] = []) => {
    const wanted = row(type);
    if (!wanted) return;
    provoked.push(type);
    const breaks = problemBreaks(ctx, check, table, { op, exchange, row: wanted, what, instance, also });
    if (breaks.length > 0) check.failAll({ at: op, found: breaks, exchange });
  };
  const pathOf = (exchange: Exchange) => new URL(exchange.request.url).pathname;

  const invalid = await ctx.send(policies.create, { body: { kit_unknown_field: true } });
  expectType(policies.create, invalid, 'validation-error', 'a body without the required fields and with an unknown one', pathOf(invalid));
  const pointers = errorPointers(invalid);
  if (!pointers.some((p) => p === '/body/kit_unknown_field' || p === '/body')) {
    check.fail({
      at: policies.create,
      rule: 'schema.ProblemError.2',
      observed: `no error points at the unknown field /body/kit_unknown_field (or the body): ${JSON.stringify(pointers)}`,
      exchange: invalid,
    });
  }
  expectType(policies.create, await ctx.send(policies.create, { rawBody: '{"name": ' }), 'malformed-json', 'a body that is not JSON');
  const metadata = await ctx.send(webhooks.create, {
    body: await bodyWith(ctx, webhooks.create, { url: 'https://169.254.169.254/latest/meta-data' }),
  });
  if (metadata.status >= 200 && metadata.status < 300) {
    provoked.push('url-not-allowed');
    notes.push('a cloud-metadata webhook URL was accepted (allowed outside production; the document refuses it in production)');
  } else {
    // The operation states the refusal's type too.
    const refusal = sentenceRule(webhooks.create, /url-not-allowed/);
    const what = 'a webhook URL on the cloud-metadata address 169.254.169.254';
    expectType(webhooks.create, metadata, 'url-not-allowed', what, undefined, refusal);
    // A refusal need not list errors; when it does, one says where the problem is: the URL.
    const refused = errorPointers(metadata);
    if (refused.length > 0 && !refused.some((p) => p === '/body/url' || p === '/body')) {
      check.fail({
        at: webhooks.create,
        rule: 'schema.ProblemError.2',
        observed: `no error of the refusal points at the refused URL /body/url (or the body): ${JSON.stringify(refused)}`,
        exchange: metadata,
      });
    }
  }
  // Over the address's failed-authentication limit a 429 comes instead (the 401 checks judge it);
  // waiting the window out would cost a minute.
  const anonymous = await ctx.send(policies.list, { auth: 'none', acceptRateLimit: true });
  if (anonymous.status === 429)
    notes.push('unauthorized not provoked here: the address is over its failed-authentication limit (the 401 checks provoked it)');
  else {
    expectType(policies.list, anonymous, 'unauthorized', 'no API key');
    if (!/^bearer\b/i.test(anonymous.headers.get('www-authenticate') ?? '')) {
      check.fail({
        at: policies.list,
        rule: 'authentication.3',
        observed: `the 401 carries WWW-Authenticate: ${String(anonymous.headers.get('www-authenticate'))}, not Bearer`,
        exchange: anonymous,
      });
    }
  }
  if (ctx.http.hasReadKey)
    expectType(
      policies.create,
      await ctx.send(policies.create, { auth: 'read', body: await bodyWith(ctx, policies.create) }),
      'forbidden',
      'a read-only key on a create',
    );
  else notes.push('forbidden not provoked: no --read-key');
  const { id: policyId, exchange: created } = await ctx.create(policies, check);
  await ctx.send(policies.delete, { id: policyId });
  const gone = await ctx.send(policies.read, { id: policyId });
  expectType(policies.read, gone, 'not-found', 'a deleted policy', pathOf(gone));
  const route = await ctx.http.send({ method: 'GET', path: `${policies.list.path}-kit-no-such-route` });
  expectType(policies.list, route, 'not-found', 'a route the document does not have');
  expectType(
    policies.list,
    await ctx.http.send({ method: 'PATCH', path: policies.list.path, body: {} }),
    'method-not-allowed',
    'PATCH on a collection',
  );

  const { id: live } = await ctx.create(policies, check);
  const stale = await ctx.send(policies.update, {
    id: live,
    body: await bodyWith(ctx, policies.update),
    headers: { 'If-Match': '"kit-stale-etag"' },
  });
  expectType(policies.update, stale, 'precondition-failed', 'If-Match with an ETag the policy never had', pathOf(stale));
  const { id: findingId, exchange: finding } = await ctx.create(findings, check, await bodyWith(ctx, findings.create, { policy_id: live }));
  expectType(
    policies.delete,
    await ctx.send(policies.delete, { id: live }),
    'policy-in-use',
    'deleting a policy an open finding references',
  );
  check.conform(
    findings.update,
    await ctx.send(findings.update, { id: findingId, body: findingUpdate(finding.json as Json, 'resolved') }),
    { statuses: [200] },
    'resolving a finding',
  );
  const illegal = await ctx.send(findings.update, { id: findingId, body: findingUpdate(finding.json as Json, 'suppressed') });
  expectType(findings.update, illegal, 'invalid-transition', 'resolved → suppressed', pathOf(illegal));
  const key = `kit-${crypto.randomUUID()}`;
  await ctx.create(policies, check, await bodyWith(ctx, policies.create), { 'Idempotency-Key': key });
  const reused = await ctx.send(policies.create, {
    body: await bodyWith(ctx, policies.create, { name: 'kit-another-body' }),
    headers: { 'Idempotency-Key': key },
  });
  expectType(policies.create, reused, 'idempotency-key-reused', 'an Idempotency-Key reused with another body');
  expectType(
    policies.create,
    await ctx.send(policies.create, { rawBody: JSON.stringify({ description: 'x'.repeat(1024 * 1024 + 1024) }) }),
    'payload-too-large',
    'a body over 1 MiB',
  );
  expectType(
    policies.create,
    await ctx.send(policies.create, { rawBody: JSON.stringify(created.json), contentType: 'text/plain' }),
    'unsupported-media-type',
    'Content-Type text/plain',
  );

  const rawProblem = (answer: RawAnswer, type: string, what: string) => {
    const wanted = row(type);
    if (!wanted) return;
    provoked.push(type);
    const breaks = rawProblemBreaks(check, answer, wanted, what);
    if (breaks.length > 0) check.failAll({ at: policies.list, found: breaks });
  };
  if (row('headers-too-large')) {
    const big = await rawRequest(
      base,
      `GET ${path}${policies.list.path} HTTP/1.1\r\nHost: ${host}\r\nX-Kit-Padding: ${'x'.repeat(17 * 1024)}\r\n\r\n`,
      10_000,
    );
    rawProblem(big, 'headers-too-large', 'header fields of 17 KiB');
  }
  if (row('malformed-request')) {
    const garbled = await rawRequest(
      base,
      `GET ${path}${policies.list.path} HTTP/1.1\r\nHost: ${host}\r\nthis is not a header\r\n\r\n`,
      10_000,
    );
    rawProblem(garbled, 'malformed-request', 'a header line without a colon');
  }
  if (slow) {
    const answer = await slow;
    rawProblem(answer, 'request-timeout', 'header fields that stop arriving (the document allows 10 s)');
    // "took over 10 s": a 408 sooner refuses a request the document says may still arrive.
    const allowed = Number(/header fields took over (\d+) s/.exec(ctx.model.doc.info.description ?? '')?.[1] ?? 0) * 1000;
    if (answer.answeredAfterMs < allowed - 500)
      check.fail({
        at: policies.list,
        rule: row('request-timeout')!.rule,
        observed: `the 408 came ${(answer.answeredAfterMs / 1000).toFixed(1)} s after the header fields stopped; the document gives them ${allowed / 1000} s`,
      });
    if (!answer.closed)
      check.fail({
        at: policies.list,
        rule: row('request-timeout')!.rule,
        observed: 'the connection stayed open after the 408',
        details: [`the kit waited ${answer.answeredAfterMs} ms`],
      });
    notes.push(`request-timeout came after ${(answer.answeredAfterMs / 1000).toFixed(1)} s`);
  }
  const missing = table.filter((r) => !provoked.includes(r.type) && !NOT_PROVOKED[r.type]).map((r) => r.type);
  if (missing.length > 0) notes.push(`not provoked (the kit knows no way from outside): ${missing.join(', ')}`);
  return notes.length === 0 ? 'passed' : { note: notes.join('; ') };
}
