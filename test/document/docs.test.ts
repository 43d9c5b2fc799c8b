// The rendered docs page names every operation and event type and loads nothing from another host.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listOperations, listWebhookOperations, loadDocument } from '../../lib/document.ts';
import { buildDocs, committed } from '../../scripts/pipeline.ts';

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
});
