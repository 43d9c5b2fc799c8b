// Starts the reference server in-process through its public factory (port 0, in-memory or temp
// database, captured logs) and gives tests the typed client (packages/api/src/client.ts, without retries) plus a raw fetch.
import pg from 'pg';
import { pino } from 'pino';
import { createSecmonClient, type SecmonClient } from '../../packages/api/src/client.ts';
import { createSchemaValidator, schemaPointer } from '../../packages/api/src/schema-validator.ts';
import { type Config, parseApiKeys, testConfig } from '../../server/config.ts';
import { REDACT_PATHS } from '../../server/http/logging.ts';
import { type RunningServer, type ServerDeps, startServer } from '../../server/server.ts';
import { sqliteConnection } from '../../server/store/sqlite/store.ts';
import { testDatabase } from '../support/database.ts';

export const WRITER_KEY = 'test-writer-5f2a9c1e7b';
export const READER_KEY = 'test-reader-8d3b6e0a4c';
export const WRITE_ONLY_KEY = 'test-writeonly-1c4e7a';

/** Test bodies are checked field by field with expect; typing them `any` keeps tests readable. */
export interface TestResponse extends Response {
  json(): Promise<any>;
  clone(): TestResponse;
}

export interface TestServer {
  server: RunningServer;
  url: string;
  /** Typed client with the read+write key. */
  api: SecmonClient;
  /** Typed client with the read-only key. */
  reader: SecmonClient;
  /** Raw fetch against the server, with the read+write key unless headers say otherwise. */
  fetch(path: string, init?: RequestInit & { json?: unknown }): Promise<TestResponse>;
  /** Every log line the server wrote. */
  logs: string[];
  close(): Promise<void>;
}

export async function startTestServer(overrides: Partial<Config> = {}, deps: ServerDeps = {}): Promise<TestServer> {
  const logs: string[] = [];
  const logger = pino(
    { level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    { write: (line: string) => void logs.push(line) },
  );
  const config = testConfig({
    apiKeys: parseApiKeys(`${WRITER_KEY}:read+write,${READER_KEY}:read,${WRITE_ONLY_KEY}:write`),
    usingDefaultKeys: false,
    rateLimitPerMinute: 0,
    database: await testDatabase(),
    ...overrides,
  });
  // No dispatcher unless a test asks for one: these suites check what is queued, not delivered,
  // and their webhook URLs point nowhere.
  const server = await startServer(config, { logger, workers: [], ...deps });
  // No retries: a test sees the first answer, a 429 included.
  const client = (key: string) => createSecmonClient({ baseUrl: server.url, apiKey: key, maxRetries: 0 });
  return {
    server,
    url: server.url,
    api: client(WRITER_KEY),
    reader: client(READER_KEY),
    logs,
    fetch: (path, init = {}) => {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('Authorization', `Bearer ${WRITER_KEY}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('Content-Type', 'application/json');
        body = JSON.stringify(init.json);
      }
      return fetch(server.url + path, { ...init, headers, body: body ?? null }) as Promise<TestResponse>;
    },
    close: () => server.close(),
  };
}

let validator: ReturnType<typeof createSchemaValidator> | undefined;

/** Asserts nothing; returns the schema errors of a value against a component schema ('' when valid). */
export function schemaErrors(component: string, value: unknown): string {
  validator ??= createSchemaValidator();
  const result = validator.validate(schemaPointer(component), value);
  return result.valid ? '' : result.message;
}

/** Reads a problem response: checks the media type and the Problem schema, returns the body. */
export async function readProblem(response: Response): Promise<{
  type: string;
  status: number;
  title: string;
  detail: string;
  instance: string;
  errors?: { pointer: string; message: string }[];
}> {
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (!type.startsWith('application/problem+json'))
    throw new Error(`expected a problem, got ${response.status} ${type}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text);
  const errors = schemaErrors('Problem', body);
  if (errors) throw new Error(`problem breaks the Problem schema: ${errors}`);
  return body;
}

export const PROBLEM = (kind: string) => `https://secmon.dev/problems/${kind}`;

export const DEVICE_ID = 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2';

/**
 * Runs SQL on a running server's database, whichever store it has: for a test that must put a
 * row in a state the API never writes. Keep the SQL portable (literals, `true`/`false`).
 */
export async function querySql(server: RunningServer, sql: string): Promise<Record<string, unknown>[]> {
  const { store, config } = server.app;
  const sqlite = sqliteConnection(store);
  if (sqlite) return sqlite.prepare(sql).all();
  const client = new pg.Client(config.database);
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
