// What a reader of the docs page sees, checked in Debian's Chromium: every operation and event,
// the webhook payloads and delivery headers, and no request leaving the machine. Redoc renders
// operations client-side, so only a real browser can tell. Shared by the static page
// (`npm run docs`) and the reference server's /docs.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations, listWebhookOperations, loadDocument, resolveRef } from '../../packages/api/src/document.ts';
import { CLIENT_LABEL, CURL_LABEL } from '../../scripts/docs/sample-names.ts';
import { root } from '../../scripts/pipeline.ts';
import { type ChromiumSession, launchChromium } from './chromium.ts';

export const artifactsDir = join(root, 'artifacts');

const DELIVERY_HEADERS = [
  'webhook-signature',
  'webhook-id',
  'webhook-timestamp',
  'X-Service-Signature',
  'X-Service-Event',
  'X-Service-Delivery',
  'X-Service-Webhook-Id',
  'User-Agent',
];
// A walk over many sections clicks once per section, each click waiting up to 10 s for Redoc to
// render on a loaded machine; the suite's 30 s default would cut a slow walk off part-way and leave
// its clicks running into the next test.
const WALK_TIMEOUT_MS = 120_000;
// Schemes that never touch the network: the page itself makes workers from blobs and inlines pictures.
const LOCAL_SCHEMES = new Set(['blob:', 'data:']);

export interface DocsSite {
  /** Absolute URL of the docs page on a loopback server. */
  url: string;
  close(): Promise<void>;
}

/**
 * Defines the browser checks for a docs page. `start` serves the page on loopback; `name` labels
 * the suite and the screenshots (artifacts/<name>-page.png, artifacts/<name>-webhook.png).
 * `everySection` walks every operation's samples, every event and every schema (about 40 s in
 * Chromium): worth doing once for the page's bytes, not once per way of serving them.
 */
export function describeDocsInBrowser(
  name: string,
  start: () => Promise<DocsSite>,
  options: { deepLinks?: boolean; everySection?: boolean } = {},
): void {
  describe(`docs in Chromium: ${name}`, () => {
    const doc = loadDocument();
    const operations = listOperations(doc);
    const events = listWebhookOperations(doc);
    const requested: string[] = [];
    const failed: string[] = [];
    let site: DocsSite;
    let browser: ChromiumSession;
    let page: Page;

    beforeAll(async () => {
      site = await start();
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      page.on('request', (request) => requested.push(request.url()));
      page.on('requestfailed', (request) => failed.push(`${request.url()} (${request.failure()?.errorText})`));
      await page.goto(site.url, { waitUntil: 'load' });
      await page.locator('[data-component-name="Menu/Menu"]').waitFor({ state: 'visible' });
      mkdirSync(artifactsDir, { recursive: true });
      await page.screenshot({ path: join(artifactsDir, `${name}-page.png`) });
    });

    afterAll(async () => {
      await browser?.close();
      await site?.close();
    });

    /** Opens a tag's group in the sidebar (a no-op when it is open) and clicks one of its items. */
    async function openFromSidebar(tag: string, summary: string): Promise<void> {
      const item = page.locator('.menu-item-type-operation').filter({ has: page.getByText(summary, { exact: true }) });
      if (!(await item.isVisible())) {
        await page
          .locator('.menu-item-type-group')
          .filter({ hasText: new RegExp(`^${tag}$`) })
          .click();
      }
      await item.click();
    }

    const heading = (summary: string) => page.getByRole('heading', { level: 2, name: summary });

    it('shows the four tags in the sidebar', async () => {
      const groups = await page.locator('.menu-item-type-group').allInnerTexts();
      expect(groups.map((text) => text.trim())).toEqual(expect.arrayContaining((doc.tags ?? []).map((tag) => tag.name)));
      expect(doc.tags?.map((tag) => tag.name)).toEqual(['Policies', 'Findings', 'Webhooks', 'Events']);
    });

    it(
      `shows all ${operations.length} operations with their summaries`,
      async () => {
        expect(operations).toHaveLength(15);
        for (const { operation } of operations) {
          await openFromSidebar(operation.tags![0]!, operation.summary!);
          await heading(operation.summary!).waitFor({ state: 'visible', timeout: 10_000 });
        }
      },
      WALK_TIMEOUT_MS,
    );

    if (options.everySection)
      it(
        `shows a curl and a ${CLIENT_LABEL} sample beside each of the ${operations.length} operations`,
        async () => {
          const sectionOf = (summary: string) =>
            page
              .locator('div')
              .filter({ has: heading(summary) })
              .filter({ has: page.locator('[data-component-name="CodeBlock/CodeBlock"]') })
              .last();
          const codeOf = (summary: string) =>
            sectionOf(summary).locator('[data-component-name="CodeBlock/CodeBlock"]').filter({ visible: true }).first();
          // Redoc's request panel has one language menu for the whole page: pick a language once,
          // then read every operation's sample in it.
          for (const label of [CURL_LABEL, CLIENT_LABEL]) {
            const [first] = operations;
            await openFromSidebar(first!.operation.tags![0]!, first!.operation.summary!);
            const menu = sectionOf(first!.operation.summary!)
              .getByRole('button', { name: new RegExp(`^(${CURL_LABEL}|${CLIENT_LABEL}|Payload)$`) })
              .first();
            if ((await menu.innerText()).trim() !== label) {
              await menu.click();
              // The menu opens in a portal that may lie outside the viewport: send the click directly.
              await page
                .locator('[data-component-name="Dropdown/DropdownMenuItem"]')
                .filter({ hasText: new RegExp(`^${label}$`) })
                .first()
                .dispatchEvent('click');
              await expect.poll(async () => (await menu.innerText()).trim(), { timeout: 10_000 }).toBe(label);
            }
            for (const { path, method, operation } of operations) {
              await openFromSidebar(operation.tags![0]!, operation.summary!);
              await heading(operation.summary!).waitFor({ state: 'visible', timeout: 10_000 });
              const verb = method.toUpperCase();
              const expected = label === CURL_LABEL ? `curl ${verb === 'GET' ? '' : `-X ${verb} `}'http` : `secmon.${verb}('${path}'`;
              // The code block fills in after the panel appears, as late as the heading may under load
              // (expect.poll gives up after 1 s unless told).
              await expect
                .poll(() => codeOf(operation.summary!).innerText(), { message: `${operation.operationId}: ${label}`, timeout: 10_000 })
                .toContain(expected);
            }
          }
        },
        WALK_TIMEOUT_MS,
      );

    if (options.everySection)
      it(
        `shows all ${events.length} events by type name, with their delivery headers and payload fields`,
        async () => {
          expect(events.map((event) => event.path).sort()).toEqual([
            'compliance.changed',
            'device.connected',
            'device.disconnected',
            'finding.created',
            'finding.resolved',
            'scan.completed',
          ]);
          for (const { path: type, operation } of events) {
            await openFromSidebar('Events', operation.summary!);
            const section = sectionOf(operation.summary!);
            await section.waitFor({ state: 'visible', timeout: 10_000 });
            await visible(section.getByText(type, { exact: true }), `event type ${type}`);
            for (const header of DELIVERY_HEADERS) {
              await visible(section.getByText(header, { exact: true }), `${type}: header ${header}`);
            }
            await visible(section.getByText('verifyWebhook(req.body', { exact: false }), `${type}: receiver sample`);
            const fields = payloadFields(type);
            expect(fields.length, `${type} has payload fields`).toBeGreaterThan(2);
            for (const field of fields) {
              await visible(section.getByText(new RegExp(`\\b${field}\\b`)), `${type}: payload field data.${field}`);
            }
          }
        },
        WALK_TIMEOUT_MS,
      );

    it(
      'shows the signature scheme on a webhook and saves a screenshot of it',
      async () => {
        const created = events.find((event) => event.path === 'finding.created')!;
        await openFromSidebar('Events', created.operation.summary!);
        const section = sectionOf(created.operation.summary!);
        await visible(section.getByText('^sha256=[0-9a-f]{64}$', { exact: true }), 'signature pattern');
        await section.screenshot({ path: join(artifactsDir, `${name}-webhook.png`) });
      },
      WALK_TIMEOUT_MS,
    );

    if (options.everySection)
      it('lists every component schema under Schemas and shows the fields of each object schema', async () => {
        type Schema = { properties?: Record<string, unknown> };
        const schemas = Object.entries(doc.components?.schemas ?? {});
        expect(schemas.length).toBeGreaterThan(40);
        // redocly.yaml sets schemaDefinitionsTagName: each schema gets a page at #/schemas/<name>.
        const menuLink = (name: string) => page.locator(`[data-component-name="Menu/MenuItem"] a[href="#/schemas/${name.toLowerCase()}"]`);
        if (!(await menuLink(schemas[0]![0]).isVisible())) {
          await page
            .locator('.menu-item-type-group')
            .filter({ hasText: /^Schemas$/ })
            .click();
        }
        for (const [name, schema] of schemas) {
          const link = menuLink(name);
          await link.waitFor({ state: 'visible', timeout: 5_000 });
          expect(await link.innerText(), `schema ${name} in the sidebar`).toMatch(new RegExp(`^${name}\\b`));
          const first = Object.keys((schema as Schema).properties ?? {})[0];
          if (!first) continue;
          await link.click();
          await page.getByText(first, { exact: true }).filter({ visible: true }).first().waitFor({ timeout: 5_000 });
        }
      });

    // Only a server can answer the link's path; a static page has no such route.
    if (options.deepLinks)
      it('a sidebar link opened in a new tab lands on its section', async () => {
        const href = await page.locator('a[href="/section/errors"]').first().getAttribute('href');
        const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        try {
          await tab.goto(new URL(href!, site.url).href, { waitUntil: 'load' });
          await tab.locator('[data-component-name="Menu/Menu"]').waitFor({ state: 'visible' });
          expect(new URL(tab.url()).pathname + new URL(tab.url()).hash).toBe('/docs#/section/errors');
          // Redoc scrolls the section into view: its heading near the top, the page scrolled down.
          const errors = tab
            .locator('h2')
            .filter({ hasText: /^Errors$/ })
            .first();
          await expect.poll(async () => (await errors.boundingBox())?.y ?? -1, { timeout: 5_000 }).toBeGreaterThanOrEqual(0);
          expect((await errors.boundingBox())!.y).toBeLessThan(200);
          expect(await tab.evaluate('window.scrollY')).toBeGreaterThan(0);
        } finally {
          await tab.close();
        }
      });

    it('made no failed request and none to another host', () => {
      const origin = new URL(site.url).origin;
      const elsewhere = requested.filter((url) => !LOCAL_SCHEMES.has(new URL(url).protocol) && new URL(url).origin !== origin);
      expect(requested.length).toBeGreaterThan(0);
      expect(elsewhere).toEqual([]);
      expect(failed).toEqual([]);
      expect(['127.0.0.1', '[::1]', 'localhost']).toContain(new URL(site.url).hostname);
    });

    // The innermost element holding both the operation's heading and its request description.
    function sectionOf(summary: string) {
      return page
        .locator('div')
        .filter({ has: heading(summary) })
        .filter({ hasText: 'X-Service-Delivery' })
        .last();
    }

    // Redoc renders a section after its sidebar entry is clicked, later on a loaded machine: wait for it.
    async function visible(locator: ReturnType<Page['locator']>, what: string): Promise<void> {
      await expect
        .poll(() => locator.filter({ visible: true }).count(), { message: `${what} is visible`, timeout: 10_000 })
        .toBeGreaterThan(0);
    }

    /** The names of the fields of an event's `data`, read from the document. */
    function payloadFields(type: string): string[] {
      type Schema = { properties?: Record<string, Schema | { $ref: string }> };
      const { operation } = events.find((event) => event.path === type)!;
      const body = resolveRef(doc, operation.requestBody!) as { content: Record<string, { schema: Schema }> };
      const event = resolveRef<Schema>(doc, body.content['application/json']!.schema);
      return Object.keys(resolveRef<Schema>(doc, event.properties!.data!).properties ?? {});
    }
  });
}
