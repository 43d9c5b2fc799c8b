// The one typed configuration of the reference server, read from the environment and overridden
// by command-line flags. Everything else receives a `Config`; nothing else reads process.env.
import { parseArgs } from 'node:util';
import { ConfigError, nonEmpty, parseBoolean, parseInteger, parseLogLevel, parseNumber } from './config-values.ts';

export { ConfigError };

export type Scope = 'read' | 'write';
export type Mode = 'development' | 'production';

export interface ApiKey {
  /** The bearer token itself. Never logged, never returned. */
  token: string;
  scopes: ReadonlySet<Scope>;
}

export interface Config {
  port: number;
  /** Loopback by default so a development server is not reachable from the network. */
  host: string;
  /**
   * Where the data lives: a file path of the embedded SQLite database (the default), ':memory:',
   * or a `postgres://` (`postgresql://`) URL, which several instances may share.
   */
  database: string;
  databaseTimeouts: DatabaseTimeouts;
  mode: Mode;
  apiKeys: readonly ApiKey[];
  /** True when `apiKeys` are the documented development defaults (printed once at start-up). */
  usingDefaultKeys: boolean;
  /** Requests per minute per API key; 0 disables rate limiting (benchmarks). */
  rateLimitPerMinute: number;
  /**
   * The window `rateLimitPerMinute` is counted in: a minute, unless a test embedding the server
   * shortens it to see a spent quota come back in seconds.
   */
  rateLimitWindowSeconds: number;
  /**
   * Failed authentications (no key, or an unknown one) per minute per client address before the
   * address's further failures get 429 instead of 401; 0 turns the throttle off.
   */
  authFailuresPerMinute: number;
  /** Validate responses against the document: on in development (and tests), off in production; SECMON_VALIDATE_RESPONSES overrides. */
  validateResponses: boolean;
  /** The offline docs page served at /docs (built by `npm run docs`). */
  docsPath: string;
  logLevel: string;
  delivery: DeliveryConfig;
  http: HttpTimeouts;
  /**
   * Browser origins allowed to call the API (CORS). Development: any http://localhost:<port> and
   * http://127.0.0.1:<port>; production: none unless listed (`--cors-origins`, comma-separated).
   */
  corsOrigins: readonly (string | RegExp)[];
}

/** `--cors-origins '*'`: every origin, echoed (the mock's setting). */
const ANY_ORIGIN = /^https?:\/\/[^/\s]+$/;

/** A page served from this machine on any port, as frontend dev servers are. */
export const LOCAL_ORIGINS = /^http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/;

/** How long a client may take; past them the server answers 408 where HTTP still allows an answer. */
export interface HttpTimeouts {
  /** From the connection (or the previous response) to the end of the request's header fields. */
  headersTimeoutMs: number;
  /** For the whole request, body included. */
  requestTimeoutMs: number;
  /** How long an idle kept-alive connection stays open. */
  keepAliveTimeoutMs: number;
}

/**
 * How long a request waits for PostgreSQL: at most `acquireMs` for a connection, then `statementMs`
 * for each statement (the server cancels it; the client gives up a quarter second later when the
 * database does not answer at all). A request meeting either gets 503 service-unavailable.
 */
export interface DatabaseTimeouts {
  statementMs: number;
  acquireMs: number;
}

/** Webhook delivery settings, consumed by server/webhooks/. */
export interface DeliveryConfig {
  /** Multiplies every retry delay; 0.001 compresses three days into minutes for tests. */
  retryScale: number;
  timeoutMs: number;
  /** Attempts in flight at once, over all webhooks. */
  concurrency: number;
  /** Attempts in flight at once to one webhook, so one slow receiver cannot take every slot. */
  perWebhookConcurrency: number;
  /**
   * How long a claimed delivery stays leased to its dispatcher; when a process dies mid-attempt,
   * another instance sends the delivery once this runs out. Longer than `timeoutMs`, so a live
   * attempt never loses its lease; `timeoutMs` + 30 s when unset.
   */
  leaseMs?: number;
}

export const DEFAULT_DEV_KEYS = 'dev-admin:read+write,dev-reader:read';
/**
 * Requests per key per minute. Development is for local work: a browser app and a contract-kit run
 * (about 2,000 requests) never reach it. Production keeps a real quota.
 */
const DEFAULT_RATE_LIMIT = { development: 10_000, production: 120 } as const;
/**
 * Failed authentications per client address per minute. Production: far too few to guess a key,
 * and enough for a contract-kit run's 401 checks (two per operation, 30 in all), so another team's
 * CI against a production target does not wait a window for them. Development: test suites stay
 * under it.
 */
const DEFAULT_AUTH_FAILURE_LIMIT = { development: 1_000, production: 30 } as const;

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  db: { type: 'string' },
  mode: { type: 'string' },
  'api-keys': { type: 'string' },
  'rate-limit': { type: 'string' },
  'auth-failure-limit': { type: 'string' },
  'log-level': { type: 'string' },
  'cors-origins': { type: 'string' },
} as const;

/**
 * Builds the configuration from environment variables (`SECMON_*`, `PORT`) and flags
 * (`--port`, `--db`, `--mode`, `--api-keys`, `--rate-limit`, `--auth-failure-limit`, `--host`,
 * `--log-level`), flags winning.
 * Throws ConfigError with a message naming the bad setting.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = []): Config {
  let flags: Partial<Record<keyof typeof FLAGS, string>>;
  try {
    flags = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const pick = (flag: keyof typeof FLAGS, name: string) => flags[flag] ?? nonEmpty(env[name]);

  const mode = parseMode(pick('mode', 'SECMON_MODE') ?? 'development');
  const keysText = pick('api-keys', 'SECMON_API_KEYS');
  if (keysText === undefined && mode === 'production') {
    throw new ConfigError('SECMON_API_KEYS is required in production mode (format: key:read+write,key2:read)');
  }
  return {
    port: parseInteger('PORT (--port)', pick('port', 'PORT') ?? '3000', 0, 65535),
    host: pick('host', 'SECMON_HOST') ?? '127.0.0.1',
    database: pick('db', 'SECMON_DB') ?? './data/secmon.db',
    databaseTimeouts: {
      statementMs: parseInteger('SECMON_DB_STATEMENT_TIMEOUT_MS', nonEmpty(env.SECMON_DB_STATEMENT_TIMEOUT_MS) ?? '3000', 100, 600_000),
      acquireMs: parseInteger('SECMON_DB_ACQUIRE_TIMEOUT_MS', nonEmpty(env.SECMON_DB_ACQUIRE_TIMEOUT_MS) ?? '2000', 100, 600_000),
    },
    mode,
    apiKeys: parseApiKeys(keysText ?? DEFAULT_DEV_KEYS),
    usingDefaultKeys: keysText === undefined,
    rateLimitPerMinute: parseInteger(
      'SECMON_RATE_LIMIT (--rate-limit)',
      pick('rate-limit', 'SECMON_RATE_LIMIT') ?? String(DEFAULT_RATE_LIMIT[mode]),
      0,
      1_000_000,
    ),
    rateLimitWindowSeconds: 60,
    authFailuresPerMinute: parseInteger(
      'SECMON_AUTH_FAILURE_LIMIT (--auth-failure-limit)',
      pick('auth-failure-limit', 'SECMON_AUTH_FAILURE_LIMIT') ?? String(DEFAULT_AUTH_FAILURE_LIMIT[mode]),
      0,
      1_000_000,
    ),
    validateResponses: parseBoolean('SECMON_VALIDATE_RESPONSES', nonEmpty(env.SECMON_VALIDATE_RESPONSES)) ?? mode === 'development',
    docsPath: nonEmpty(env.SECMON_DOCS) ?? 'dist/docs.html',
    logLevel: parseLogLevel(pick('log-level', 'SECMON_LOG_LEVEL') ?? 'info'),
    delivery: withLease(env, {
      retryScale: parseNumber('SECMON_RETRY_SCALE', nonEmpty(env.SECMON_RETRY_SCALE) ?? '1'),
      timeoutMs: parseInteger('SECMON_DELIVERY_TIMEOUT_MS', nonEmpty(env.SECMON_DELIVERY_TIMEOUT_MS) ?? '10000', 1, 600_000),
      concurrency: parseInteger('SECMON_DELIVERY_CONCURRENCY', nonEmpty(env.SECMON_DELIVERY_CONCURRENCY) ?? '16', 1, 1024),
      perWebhookConcurrency: parseInteger('SECMON_DELIVERY_PER_WEBHOOK', nonEmpty(env.SECMON_DELIVERY_PER_WEBHOOK) ?? '8', 1, 1024),
    }),
    http: parseHttpTimeouts(env),
    corsOrigins: parseCorsOrigins(pick('cors-origins', 'SECMON_CORS_ORIGINS'), mode),
  };
}

/**
 * What start-up should warn about in how the configuration was given: API keys as a flag show in
 * `ps`, the shell history and the command line npm echoes (`npm start -- --api-keys …`).
 */
export function configWarnings(argv: readonly string[]): string[] {
  return argv.some((arg) => arg === '--api-keys' || arg.startsWith('--api-keys='))
    ? [
        '--api-keys puts the keys on the command line, where ps, the shell history and npm (which echoes the command) show them; set SECMON_API_KEYS in the environment instead',
      ]
    : [];
}

// An attempt outliving its lease could be sent twice by live dispatchers.
function withLease(env: NodeJS.ProcessEnv, delivery: DeliveryConfig): DeliveryConfig {
  const text = nonEmpty(env.SECMON_DELIVERY_LEASE_MS);
  if (text === undefined) return delivery;
  const leaseMs = parseInteger('SECMON_DELIVERY_LEASE_MS', text, 1, 3_600_000);
  if (leaseMs <= delivery.timeoutMs)
    throw new ConfigError('SECMON_DELIVERY_LEASE_MS must be longer than SECMON_DELIVERY_TIMEOUT_MS, or a live attempt could be sent twice');
  return { ...delivery, leaseMs };
}

function parseCorsOrigins(text: string | undefined, mode: Mode): (string | RegExp)[] {
  if (text === undefined) return mode === 'development' ? [LOCAL_ORIGINS] : [];
  const origins = text
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (origins.length === 1 && origins[0] === '*') return [ANY_ORIGIN];
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(
        `SECMON_CORS_ORIGINS (--cors-origins): each entry must be an origin such as https://app.example.com (scheme and host, no path); got "${origin}"`,
      );
    }
  }
  return origins;
}

function parseHttpTimeouts(env: NodeJS.ProcessEnv): HttpTimeouts {
  const ms = (name: string, fallback: string) => parseInteger(name, nonEmpty(env[name]) ?? fallback, 1, 3_600_000);
  const timeouts = {
    headersTimeoutMs: ms('SECMON_HEADERS_TIMEOUT_MS', '10000'),
    requestTimeoutMs: ms('SECMON_REQUEST_TIMEOUT_MS', '30000'),
    keepAliveTimeoutMs: ms('SECMON_KEEP_ALIVE_TIMEOUT_MS', '5000'),
  };
  // Node refuses a header time-out longer than the request's, and the header fields are part of it.
  if (timeouts.headersTimeoutMs > timeouts.requestTimeoutMs) {
    throw new ConfigError('SECMON_HEADERS_TIMEOUT_MS must not be longer than SECMON_REQUEST_TIMEOUT_MS');
  }
  return timeouts;
}

/**
 * A config for tests and embedding: development defaults, in-memory database, port 0. PostgreSQL
 * gets 10 s for a connection and a statement instead of 2 s and 3 s: on a loaded test machine a slow
 * database is no outage, and a test that means one sets its own.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      SECMON_DB: ':memory:',
      PORT: '0',
      SECMON_LOG_LEVEL: 'silent',
      SECMON_DB_STATEMENT_TIMEOUT_MS: '10000',
      SECMON_DB_ACQUIRE_TIMEOUT_MS: '10000',
    }),
    ...overrides,
  };
}

export function parseApiKeys(text: string): ApiKey[] {
  const keys: ApiKey[] = [];
  for (const [index, entry] of text
    .split(',')
    .map((part) => part.trim())
    .entries()) {
    const problem = keyEntryProblem(entry);
    if (problem) throw new ConfigError(`SECMON_API_KEYS: entry ${index + 1} ${problem} (format: <key>:<scope>[+<scope>],...)`);
    const separator = entry.lastIndexOf(':');
    const [token, scopes] = [entry.slice(0, separator), entry.slice(separator + 1).split('+')];
    for (const scope of scopes) {
      if (scope !== 'read' && scope !== 'write') {
        throw new ConfigError(`SECMON_API_KEYS: unknown scope '${scope}' (use read, write or read+write)`);
      }
    }
    if (keys.some((key) => key.token === token)) throw new ConfigError('SECMON_API_KEYS: a key is listed twice');
    keys.push({ token, scopes: new Set(scopes as Scope[]) });
  }
  return keys;
}

// The message must help without echoing a secret: it describes the key (its length, the kind of
// character that is wrong), never shows it.
function keyEntryProblem(entry: string): string | undefined {
  if (entry === '') return 'is empty';
  const separator = entry.lastIndexOf(':');
  if (separator < 0) return "has no ':<scope>'";
  const key = entry.slice(0, separator);
  if (!/^[a-z+]+$/.test(entry.slice(separator + 1))) return "has no scope (read, write or read+write) after its last ':'";
  if (key.length < 8 || key.length > 256) return `has a key of ${key.length} characters; keys have 8 to 256`;
  if (!/^[\x21-\x2b\x2d-\x39\x3b-\x7e]+$/.test(key)) return "has a key with a character that is not visible ASCII, or a ':'";
  return undefined;
}

function parseMode(value: string): Mode {
  if (value === 'development' || value === 'production') return value;
  throw new ConfigError(`SECMON_MODE must be 'development' or 'production', not '${value}'`);
}
