// The app factory: one Express app over one store, with the whole middleware order in one
// place (below), and hooks (AppDeps) for what another assembly of the app adds to it. The process
// entry point is server/main.ts; tests use startServer (server.ts).
import express, { type Express, type RequestHandler, type Router } from 'express';
import type { Logger } from 'pino';
import { type Config, ConfigError } from './config.ts';
import { authenticate, requireScope } from './http/auth.ts';
import { type AuthFailureThrottle, authFailureThrottle } from './http/auth-throttle.ts';
import { parseJson, requireJson } from './http/body.ts';
import { corsForOrigins } from './http/cors.ts';
import { DatabaseHealth } from './http/database-health.ts';
import { createLogger, requestLogger } from './http/logging.ts';
import { operationsRouter } from './http/operations.ts';
import { problemHandler, sendProblem } from './http/problems.ts';
import { rateLimitPerKey } from './http/rate-limit.ts';
import { sharedRateLimitStore } from './http/shared-rate-limit.ts';
import { contractValidator } from './http/validator.ts';
import type { RouteContext, WebhookUrlCheck } from './routes/context.ts';
import { findingsRouter } from './routes/findings.ts';
import { policiesRouter } from './routes/policies.ts';
import { webhooksRouter } from './routes/webhooks.ts';
import { SETTINGS_PATH, settingsRouter } from './settings/router.ts';
import { SIMULATOR_PATH, simulatorRouter } from './simulator/router.ts';
import { reportingFaultSites } from './store/faults.ts';
import { openStore } from './store/open.ts';
import type { Store } from './store/store.ts';
import { checkWebhookUrl } from './webhooks/ssrf.ts';

export interface AppDeps {
  /** Defaults to a pino logger on stdout at config.logLevel; tests inject one with a capturing destination. */
  logger?: Logger;
  /** An already open store; defaults to opening config.database. The app closes it. */
  store?: Store;
  now?: () => Date;
  /** The webhook URL policy; defaults to the SSRF guard of server/webhooks/ssrf.ts for the mode. */
  checkWebhookUrl?: WebhookUrlCheck;
  /** Runs on the open store before the app serves, for starting data; the store is closed if it throws. */
  prepareStore?: (store: Store) => Promise<void>;
  /** Any well-formed bearer token is a key with every scope, on /v1 and the simulator: for a local stand-in that needs no keys. */
  anyToken?: boolean;
  /** Request headers browsers may send from other origins besides the API's own. */
  corsRequestHeaders?: readonly string[];
  /** Middleware on /v1 after authentication and request validation, before the handlers. */
  contractMiddleware?: readonly RequestHandler[];
  /**
   * Routers outside /v1, mounted after the operational endpoints and the event simulator
   * (development mode) and before the /v1 stack and the 404 handler. Receive the app.
   */
  routers?: ((app: SecmonApp) => { path: string; router: Router })[];
}

export interface SecmonApp {
  express: Express;
  store: Store;
  logger: Logger;
  config: Config;
  now: () => Date;
  /** Counts failed authentications per address for every router that authenticates. */
  authThrottle: AuthFailureThrottle | undefined;
  /** Flips /readyz to 503; called when shutdown begins. */
  stopAccepting(): void;
}

/** The event simulator exists only in development mode; it is not part of the contract. */
function simulatorRouters(config: Config, anyKey: boolean): NonNullable<AppDeps['routers']> {
  if (config.mode !== 'development') return [];
  return [
    ({ store, now, authThrottle }) => ({
      path: SIMULATOR_PATH,
      router: simulatorRouter({ store, apiKeys: config.apiKeys, anyKey, now, authThrottle }),
    }),
  ];
}

export async function createApp(config: Config, deps: AppDeps = {}): Promise<SecmonApp> {
  // A service that takes any token has no access control: never outside development.
  if (deps.anyToken && config.mode !== 'development') throw new ConfigError('any token as a key exists only in development mode');
  const logger = deps.logger ?? createLogger(config.logLevel);
  const opened = deps.store ?? (await openStore(config.database, config.databaseTimeouts));
  // Every store error names the operation that met it in the log.
  const store = reportingFaultSites(opened);
  try {
    await deps.prepareStore?.(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  const health = new DatabaseHealth(store, logger);
  const now = deps.now ?? (() => new Date());
  let accepting = true;
  const app = express();
  const authThrottle = authFailureThrottle(config.authFailuresPerMinute, sharedRateLimitStore(store.rateLimits));
  const secmon: SecmonApp = { express: app, store, logger, config, now, authThrottle, stopAccepting: () => (accepting = false) };
  const context: RouteContext = {
    store,
    now,
    checkWebhookUrl: deps.checkWebhookUrl ?? ((url) => checkWebhookUrl(url, { mode: config.mode })),
  };

  app.disable('x-powered-by');
  // Resources carry strong ETags computed from their representation; Express's weak ones would
  // also answer 304 on lists and problems.
  app.set('etag', false);

  // The middleware order, in one place:
  // 1. request id and one structured log line per request
  app.use(requestLogger(logger));
  app.use(corsForOrigins(config.corsOrigins, deps.corsRequestHeaders));
  // 2. operational endpoints, no API key
  app.use(operationsRouter({ health, docsPath: config.docsPath, isAccepting: () => accepting }));
  app.use(SETTINGS_PATH, settingsRouter(config.mode));
  // 3. routers outside the contract (simulator, ...)
  for (const mount of [...simulatorRouters(config, deps.anyToken === true), ...(deps.routers ?? [])]) {
    const { path, router } = mount(secmon);
    app.use(path, router);
  }
  // 4. the /v1 contract: 401 → rate limit (per key) → 403 → 415 → 413 / malformed JSON →
  //    request validation (400, 404, 405) and response validation → handlers
  app.use(
    '/v1',
    health.watchWrites(),
    authenticate(config.apiKeys, deps.anyToken, authThrottle),
    rateLimitPerKey(config.rateLimitPerMinute, config.rateLimitWindowSeconds, sharedRateLimitStore(store.rateLimits)),
    requireScope,
    requireJson,
    parseJson,
    ...contractValidator(config.validateResponses),
    ...(deps.contractMiddleware ?? []),
  );
  app.use('/v1/policies', policiesRouter(context));
  app.use('/v1/findings', findingsRouter(context));
  app.use('/v1/webhooks', webhooksRouter(context));
  // 5. anything else is a 404 problem; every error becomes a problem
  app.use((req, res) => sendProblem(req, res, 'not-found', `No route matches ${req.method} ${req.path}.`));
  app.use(problemHandler(logger, health));
  return secmon;
}
