// The MSW handlers: one per operation of the document (named by its operation id), and one that
// answers any other `/v1` request with the contract's 404/405 problem. Each validates the request
// against the document first; then a `Prefer` header, a scenario or an override picks the answer,
// or the mode does (stateless: the documented examples; stateful: an in-memory service).
import { type HttpHandler, http } from 'msw';
import { listOperations, loadDocument } from 'secmon-api/src/document';
import { parsePrefer } from '../../../common/prefer.ts';
import { documentedRateLimit, quotaUsedUp } from '../../../common/rate-limit.ts';
import { type Answer, preferredAnswer, problemAnswer, toResponse } from './answer.ts';
import { type CheckedRequest, requestChecker } from './request-check.ts';
import { statefulService } from './stateful/service.ts';
import { statelessAnswerer } from './stateless.ts';
import type { OperationId, OverrideRequest, OverrideResolver, Scenario } from './types.ts';

export interface SecmonMswOptions {
  /**
   * The origin the client calls, such as `https://api.example.test` (no `/v1`); by default any
   * origin, so the handlers answer whatever base URL the page or test uses.
   */
  baseUrl?: string;
  /**
   * `true`: an in-memory service with the reference server's rules (creates appear in lists,
   * ETags, the finding life cycle, compliance), seeded from the document's examples.
   * `false` (the default): every answer is a documented example, as the Prism mock gives it.
   */
  stateful?: boolean;
}

export interface SecmonMsw {
  /** Every operation's handler, plus the 404/405 of any other `/v1` request: `setupServer(...mock.handlers)`. */
  handlers: HttpHandler[];
  /** A handler giving one documented answer for an operation (`server.use(mock.scenario('getPolicy', { code: 404 }))`). */
  scenario<Op extends OperationId>(operationId: Op, choice: NoInfer<Scenario<Op>>): HttpHandler;
  /** A handler answering one operation from a typed function of the validated request. */
  override<Op extends OperationId>(operationId: Op, resolver: NoInfer<OverrideResolver<Op>>): HttpHandler;
  /** Stateful mode: the seed back (every write forgotten). Stateless mode: nothing to forget. */
  reset(): void;
}

type Respond = (request: Request, checked: CheckedRequest) => Answer | Promise<Answer>;

export function createSecmonMsw(options: SecmonMswOptions = {}): SecmonMsw {
  const doc = loadDocument();
  const check = requestChecker(doc);
  const limits = documentedRateLimit(doc);
  const base = (options.baseUrl ?? '*').replace(/\/+$/, '');
  const operations = new Map(
    listOperations(doc).map(({ path, method, operation }) => [operation.operationId as OperationId, { path, method }]),
  );
  const service = options.stateful ? statefulService(doc) : undefined;
  const documented = statelessAnswerer(doc);
  // Like the server mocks: any documented answer in the stateless mode; the stateful one answers
  // successes from its state and documented errors on request.
  const allowed = (status: number) => service === undefined || status >= 400;

  const answering =
    (respond: Respond) =>
    async ({ request }: { request: Request }) => {
      const verdict = check(request, await request.clone().text());
      const answer = 'problem' in verdict ? problemAnswer(verdict.problem, verdict.headers) : await respond(request, verdict.ok);
      if (answer.status === 401) return toResponse(answer);
      // Later names win whatever their case, so a scenario's or an override's `Retry-After` replaces the documented one.
      const headers = Object.fromEntries(
        Object.entries({ ...limits, ...answer.headers }).map(([name, value]) => [name.toLowerCase(), value]),
      );
      if (answer.status === 429) headers.ratelimit = quotaUsedUp(headers.ratelimit!, headers['retry-after']);
      return toResponse({ ...answer, headers });
    };
  const byDefault: Respond = (request, checked) => {
    const preference = parsePrefer(request.headers.get('prefer') ?? undefined);
    if (preference.code !== undefined || preference.example !== undefined) return preferredAnswer(doc, request, preference, allowed);
    return service ? service.answer(request, checked) : documented(request, checked);
  };
  const route = (operationId: OperationId, respond: Respond) => {
    const operation = operations.get(operationId);
    if (!operation) throw new TypeError(`secmon-msw: the document has no operation ${String(operationId)}`);
    return http[operation.method as 'get'](`${base}${operation.path.replace(/\{([^}]+)\}/g, ':$1')}`, answering(respond));
  };
  return {
    handlers: [...[...operations.keys()].map((id) => route(id, byDefault)), http.all(`${base}/v1/*`, answering(byDefault))],
    scenario: (operationId, choice) => {
      const { code, example, headers = {} } = choice as { code?: number; example?: string; headers?: Record<string, string> };
      const preference = { ...(code === undefined ? {} : { code: String(code) }), ...(example === undefined ? {} : { example }) };
      return route(operationId, (request) => {
        const answer = preferredAnswer(doc, request, preference);
        return { ...answer, headers: { ...answer.headers, ...headers } };
      });
    },
    override: (operationId, resolver) =>
      route(operationId, async (request, checked) => {
        const given = (await resolver({ request, ...checked } as unknown as OverrideRequest<typeof operationId>)) as Answer;
        const status = Number(given.status);
        if (given.body === undefined) return { status, headers: given.headers ?? {} };
        return {
          status,
          headers: given.headers ?? {},
          body: given.body,
          mediaType: status >= 400 ? 'application/problem+json' : 'application/json',
        };
      }),
    reset: () => service?.reset(),
  };
}
