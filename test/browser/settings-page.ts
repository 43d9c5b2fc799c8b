// The Settings → Integrations page in Debian's Chromium against a reference server in development
// mode with a writer and a reader key, a loopback receiver that records each delivery and checks
// its signature, and the hosts and errors the pages meet. Screenshots go to artifacts/.
import { once } from 'node:events';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { verifySignature } from '../../packages/api/src/signing.ts';
import { parseApiKeys, testConfig } from '../../server/config.ts';
import { type RunningServer, startServer } from '../../server/server.ts';
import { type ChromiumSession, launchChromium } from './chromium.ts';
import { artifactsDir } from './docs-in-browser.ts';

export const WRITER = 'settings-writer-1a2b3c';
export const READER = 'settings-reader-4d5e6f';
export const SECRET = 'whsec_settings_page_test';
export const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const ACTIVE_ID = 'document.activeElement && document.activeElement.id';

export interface Receipt {
  event: string;
  valid: boolean;
  path: string;
  raw: Buffer;
  headers: Record<string, unknown>;
}

/** Starts the server, the receiver and Chromium before the file's tests and stops them after. */
export function integrationsPage() {
  let server: RunningServer;
  let receiver: Server;
  let browser: ChromiumSession;
  const ui = {
    server: () => server,
    browser: () => browser,
    receiverUrl: '',
    received: [] as Receipt[],
    requestedHosts: new Set<string>(),
    pageErrors: [] as string[],
    /** The page with `key` entered, once its webhook list shows. */
    async openPage(key: string, width = 1200, bypassCSP = false): Promise<Page> {
      const page = await browser.newPage({ viewport: { width, height: 900 }, bypassCSP });
      page.on('request', (request) => ui.requestedHosts.add(new URL(request.url()).host));
      page.on('pageerror', (error) => ui.pageErrors.push(error.message));
      await page.goto(`${server.url}/settings/integrations`);
      await page.getByLabel('Your API key').fill(key);
      await page.getByRole('button', { name: 'Use this key' }).click();
      await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
      return page;
    },
    api: (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${WRITER}`, 'content-type': 'application/json', ...init.headers },
      }),
  };

  beforeAll(async () => {
    const config = testConfig({ apiKeys: parseApiKeys(`${WRITER}:read+write,${READER}:read`), usingDefaultKeys: false });
    config.delivery = { ...config.delivery, retryScale: 0.001 };
    server = await startServer(config);
    receiver = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks);
      ui.received.push({
        event: String(req.headers['x-service-event']),
        valid: verifySignature(raw, req.headers['x-service-signature'], SECRET),
        path: req.url ?? '',
        raw,
        headers: req.headers,
      });
      res.writeHead(204).end();
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    ui.receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    browser = await launchChromium();
    mkdirSync(artifactsDir, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    receiver?.close();
    await server?.close();
  });
  return ui;
}
