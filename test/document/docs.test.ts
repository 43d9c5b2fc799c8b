// The rendered docs page names every operation and event type, loads nothing from another host and
// carries its icon; its code samples call production, and served by the reference server, the
// origin it is requested from.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INLINE_FAVICON_LINK } from '../../common/favicon.ts';
import { listOperations, listWebhookOperations, loadDocument } from '../../packages/api/src/document.ts';
import { buildDocs, committed } from '../../scripts/pipeline.ts';
import { testConfig } from '../../server/config.ts';
import { startServer } from '../../server/server.ts';

const scratch = mkdtempSync(join(tmpdir(), 'secmon-docs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('rendered docs (npm run docs)', () => {
  const file = join(scratch, 'docs.html');
  buildDocs(committed.json, file);
  const html = readFileSync(file, 'utf8');
  // Redoc prerenders the navigation (tags) and renders operations in the browser from the embedded
  // definition; test/browser checks what a reader actually sees.
  const rendered = html.slice(html.indexOf('<div id="redoc">'), html.indexOf('<script type="module">'));
  const doc = loadDocument();

  it('is one self-contained page', () => {
    expect(html.length).toBeGreaterThan(500_000); // Redoc's script is inlined
    expect(rendered.length).toBeGreaterThan(10_000);
  });

  it('prerenders the navigation with every tag', () => {
    for (const tag of doc.tags ?? []) expect(rendered).toContain(`>${tag.name}<`);
  });
  for (const { operation } of listOperations(doc)) {
    it(`names the operation "${operation.summary}"`, () => expect(html).toContain(`"summary":"${operation.summary}"`));
  }
  for (const { path: event } of listWebhookOperations(doc)) {
    it(`names the event ${event}`, () => expect(html).toContain(`"${event}":{"post":`));
  }

  it('loads no script, style, font or image from any host', () => {
    const loads = [
      ...html.matchAll(/<(?:script|img|iframe|source|audio|video)\b[^>]*\bsrc\s*=\s*["']?([^"'\s>]+)/gi),
      ...html.matchAll(/<link\b[^>]*\bhref\s*=\s*["']?([^"'\s>]+)/gi),
      ...html.matchAll(/@import\s+(?:url\()?\s*["']?([^"')\s;]+)/gi),
      ...html.matchAll(/url\(\s*["']?(https?:[^"')\s]+)/gi),
    ].map((m) => m[1]);
    expect(loads.filter((url) => /^(https?:)?\/\//i.test(url!))).toEqual([]);
  });

  it('has telemetry turned off (redocly.yaml `telemetry: off`)', () => {
    expect(html).toContain('"disableTelemetry":true');
  });

  it('carries its icon inline, in its head', () => {
    expect(html.slice(0, html.indexOf('</head>'))).toContain(INLINE_FAVICON_LINK);
  });

  const PRODUCTION = doc.servers![0]!.url;
  /** Every place a sample names an origin: in Redoc's state and the introduction's prerendered HTML. */
  const sampleOrigins = (page: string) => [
    ...new Set([...page.matchAll(/(?:curl(?: -X [A-Z]+)? |baseUrl: )(?:'|&#x27;)(https?:\/\/[^/'&]+)/g)].map((m) => m[1])),
  ];

  it('has samples calling production, while the servers list names the local server and the mock', () => {
    expect(sampleOrigins(html)).toEqual([PRODUCTION]);
    expect(html).toContain(`curl -X POST '${PRODUCTION}/v1/policies'`);
    expect(doc.servers!.map((server) => server.url)).toEqual([PRODUCTION, 'http://localhost:3000', 'http://localhost:4010']);
  });

  describe('served at /docs by the reference server', () => {
    /** The page as a browser gets it from a server reached as `host`. */
    const served = (port: number, host: string) =>
      new Promise<string>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: '/docs', headers: { host } }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(text));
        })
          .on('error', reject)
          .end();
      });

    it('has samples calling the origin it is requested from, whatever its port or name; the rest stays', async () => {
      const server = await startServer(testConfig({ docsPath: file }));
      try {
        const { port } = new URL(server.url);
        const local = `http://localhost:${port}`;
        const page = await served(Number(port), `localhost:${port}`);
        expect(sampleOrigins(page)).toEqual([local]);
        expect(page).toContain(`curl -X POST '${local}/v1/policies'`);
        expect(page).toContain(`createSecmonClient({ baseUrl: '${local}'`);
        // The document it shows is the same: its servers list and the changelog still name production.
        expect(page.replaceAll(local, PRODUCTION)).toBe(html);
        expect(page).toContain(`"servers":[{"url":"${PRODUCTION}"`);
        expect(sampleOrigins(await served(Number(port), 'docs.example.test:8443'))).toEqual(['http://docs.example.test:8443']);
        // A Host that is no host name goes nowhere near the page.
        expect(sampleOrigins(await served(Number(port), "x'><script>alert(1)</script>"))).toEqual([PRODUCTION]);
      } finally {
        await server.close();
      }
    });
  });
});
