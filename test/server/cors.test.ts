// CORS as a browser meets it: preflights answered before authentication and rate limiting, the
// headers a client needs exposed, local origins allowed in development, none in production unless
// configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { startTestServer, type TestServer, WRITER_KEY } from './helpers.ts';

const APP = 'http://localhost:5173';
const preflight = (server: TestServer, origin: string) =>
  fetch(`${server.url}/v1/policies/pol_01jbz1a2b3c4d5e6f7g8h9j0k1`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type,if-match' },
  });

describe('CORS in development mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ rateLimitPerMinute: 1 });
  });
  afterAll(() => server.close());

  it('answers a preflight from a local origin with 204, no key needed and no quota spent', async () => {
    for (let i = 0; i < 3; i++) {
      const response = await preflight(server, APP);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(response.headers.get('access-control-allow-methods')).toBe('GET,POST,PUT,DELETE');
      expect(response.headers.get('access-control-allow-headers')).toBe(
        'Authorization,Content-Type,If-Match,If-None-Match,Idempotency-Key',
      );
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
    // The quota of 1 is still there for the real request.
    const real = await fetch(`${server.url}/v1/policies`, {
      headers: { origin: 'http://127.0.0.1:8080', authorization: `Bearer ${WRITER_KEY}` },
    });
    expect(real.status).toBe(200);
    expect(real.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:8080');
    expect(real.headers.get('access-control-expose-headers')).toBe('ETag,Location,RateLimit,RateLimit-Policy,Retry-After,X-Request-Id');
  });

  it('gives other origins no CORS headers, and problems carry them for allowed ones', async () => {
    expect((await preflight(server, 'https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    const unauthorised = await fetch(`${server.url}/v1/policies`, { headers: { origin: APP } });
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.headers.get('access-control-allow-origin')).toBe(APP);
  });
});

describe('CORS in production mode', () => {
  it('allows no origin by default, and exactly the configured ones', async () => {
    const closed = await startTestServer({ mode: 'production', corsOrigins: [] });
    const open = await startTestServer({ mode: 'production', corsOrigins: ['https://app.example.com'] });
    try {
      expect((await preflight(closed, 'https://app.example.com')).headers.get('access-control-allow-origin')).toBeNull();
      expect((await preflight(open, 'https://app.example.com')).headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect((await preflight(open, APP)).headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await closed.close();
      await open.close();
    }
  });

  it('reads --cors-origins and refuses an entry that is not an origin', () => {
    expect(loadConfig({ SECMON_MODE: 'production', SECMON_API_KEYS: 'abcdefgh:read' }).corsOrigins).toEqual([]);
    expect(loadConfig({}, ['--cors-origins', 'https://a.example, http://b.example:8080']).corsOrigins).toEqual([
      'https://a.example',
      'http://b.example:8080',
    ]);
    expect(() => loadConfig({ SECMON_CORS_ORIGINS: 'https://a.example/app' })).toThrow(ConfigError);
    expect(() => loadConfig({ SECMON_CORS_ORIGINS: 'https://a.example/app' })).toThrow(/SECMON_CORS_ORIGINS \(--cors-origins\)/);
  });
});
