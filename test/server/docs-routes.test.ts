// The docs page and the document as a reader's browser gets them: compressed, cacheable with a
// strong ETag (304 on revalidation, a new ETag after a rebuild), Redoc's deep links sent to the
// page with their route as the fragment, / pointing at the docs, and the pages' icon.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAVICON_SVG } from '../../common/favicon.ts';
import { testConfig } from '../../server/config.ts';
import { type RunningServer, startServer } from '../../server/server.ts';

const scratch = mkdtempSync(join(tmpdir(), 'secmon-docs-routes-'));
const docsPath = join(scratch, 'docs.html');
const page = (marker: string) => `<!doctype html><title>${marker}</title>${'<p>Redoc renders the document here.</p>\n'.repeat(5_000)}`;
let server: RunningServer;

beforeAll(async () => {
  writeFileSync(docsPath, page('first build'));
  server = await startServer(testConfig({ docsPath }));
});
afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A raw GET (no automatic decompression or redirects): status, headers and the bytes on the wire. */
function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('/docs, /openapi.json and /openapi.yaml', () => {
  it.each(['/docs', '/openapi.json', '/openapi.yaml'])('%s is sent compressed to a client that accepts gzip', async (path) => {
    const plain = await get(path);
    const zipped = await get(path, { 'accept-encoding': 'gzip' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
  });

  it('the page is cacheable: a strong ETag, no-cache, 304 when unchanged, a new ETag after a rebuild', async () => {
    const first = await get('/docs');
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get('/docs', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    writeFileSync(docsPath, page('second build'));
    const rebuilt = await get('/docs', { 'if-none-match': etag });
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.headers.etag).not.toBe(etag);
    expect(rebuilt.body.toString()).toContain('second build');
  });
});

describe('links into the docs', () => {
  it.each([
    ['/', '/docs'],
    ['/docs/section/authentication', '/docs#/section/authentication'],
    ['/section/errors', '/docs#/section/errors'],
    ['/policies', '/docs#/policies'],
    ['/findings/updatefinding', '/docs#/findings/updatefinding'],
    ['/schemas/policy', '/docs#/schemas/policy'],
  ])('%s redirects to %s', async (path, location) => {
    const response = await get(path);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(location);
  });

  it('other paths are still the contract’s 404 problem', async () => {
    const response = await get('/tag/policies');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('a page that has not been built is a 404 problem that says how to build it', async () => {
    const unbuilt = await startServer(testConfig({ docsPath: join(scratch, 'missing.html') }));
    try {
      const response = await fetch(`${unbuilt.url}/docs`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { detail: string }).detail).toContain('npm run docs');
    } finally {
      await unbuilt.close();
    }
  });
});

describe('the icon', () => {
  it.each(['/favicon.ico', '/favicon.svg'])('%s answers the SVG icon, cacheable', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.body.toString()).toBe(FAVICON_SVG);
    expect((await get(path, { 'if-none-match': response.headers.etag as string })).status).toBe(304);
  });

  it('the settings page links it', async () => {
    const page = (await get('/settings/integrations')).body.toString();
    expect(page).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
  });
});
