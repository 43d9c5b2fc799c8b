// Settings → Integrations as a person uses it, in Debian's Chromium against a reference server in
// development mode: a key, a webhook created through the page to a loopback receiver, a delivery
// seen on the page, a test event, a 412 explained, field errors, a read-only key, keyboard-only use,
// and an axe-core accessibility check. Screenshots go to artifacts/.
import { once } from 'node:events';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../lib/signing.ts';
import { verifyWebhook } from '../../lib/verify-webhook.ts';
import { parseApiKeys, testConfig } from '../../server/config.ts';
import { type RunningServer, startServer } from '../../server/server.ts';
import { launchChromium } from './chromium.ts';
import { artifactsDir } from './docs-in-browser.ts';

const WRITER = 'settings-writer-1a2b3c';
const READER = 'settings-reader-4d5e6f';
const SECRET = 'whsec_settings_page_test';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: RunningServer;
let receiver: Server;
let receiverUrl: string;
const received: { event: string; valid: boolean; path: string; raw: Buffer; headers: Record<string, unknown> }[] = [];
let browser: Browser;
const requestedHosts = new Set<string>();
const pageErrors: string[] = [];
/** Evaluated in the page (a string: this file is compiled without the DOM library). */
const ACTIVE_ID = 'document.activeElement && document.activeElement.id';

beforeAll(async () => {
  const config = testConfig({ apiKeys: parseApiKeys(`${WRITER}:read+write,${READER}:read`), usingDefaultKeys: false });
  config.delivery = { ...config.delivery, retryScale: 0.001 };
  server = await startServer(config);
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    received.push({
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
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  browser = await launchChromium();
  mkdirSync(artifactsDir, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  receiver?.close();
  await server?.close();
});

async function openPage(key: string, width = 1200, bypassCSP = false): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, bypassCSP });
  page.on('request', (request) => requestedHosts.add(new URL(request.url()).host));
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${server.url}/settings/integrations`);
  await page.getByLabel('Your API key').fill(key);
  await page.getByRole('button', { name: 'Use this key' }).click();
  await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
  return page;
}

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${WRITER}`, 'content-type': 'application/json', ...init.headers },
  });

describe('Settings → Integrations in Chromium', () => {
  it('creates a webhook with two event types and a secret, then shows the delivery of an event made through the API', async () => {
    const page = await openPage(WRITER);
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('Receiver URL').fill(receiverUrl);
    await page.getByLabel('finding.created').check();
    await page.getByLabel('compliance.changed').check();
    await page.getByLabel('Description (optional)').fill('On-call pager');
    await page.getByLabel('Secret', { exact: true }).fill(SECRET);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`Created the webhook for ${receiverUrl}`);
    const row = page.locator('article', { hasText: receiverUrl });
    await expect.poll(() => row.textContent()).toContain('finding.created, compliance.changed');
    expect(await row.textContent()).toContain('has a secret');
    expect(await row.textContent()).not.toContain(SECRET);

    const policy = (await (
      await api('/v1/policies', { method: 'POST', body: JSON.stringify({ name: 'Disk encryption', severity: 'high' }) })
    ).json()) as { id: string };
    await api('/v1/findings', {
      method: 'POST',
      body: JSON.stringify({
        title: 'Disk not encrypted',
        severity: 'high',
        device_id: 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2',
        policy_id: policy.id,
      }),
    });
    await expect.poll(() => received.filter((r) => r.event === 'finding.created').length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(received.every((r) => r.valid)).toBe(true);
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return page.locator('article', { hasText: receiverUrl }).textContent();
        },
        { timeout: 15_000 },
      )
      .toContain('succeeded, HTTP 204');
    await page.screenshot({ path: join(artifactsDir, 'settings-desktop.png'), fullPage: true });
    await page.close();
  });

  it('sends a test event through the simulator and shows when the delivery lands', async () => {
    const page = await openPage(WRITER);
    const before = received.length;
    const row = page.locator('article', { hasText: receiverUrl });
    await row.getByLabel('Test event', { exact: true }).selectOption('compliance.changed');
    await row.getByRole('button', { name: /Send test event/ }).click();
    await expect
      .poll(() => page.getByRole('status').textContent(), { timeout: 20_000 })
      .toContain('Test compliance.changed event: delivery succeeded (204)');
    expect(received.slice(before).map((r) => r.event)).toContain('compliance.changed');
    await page.close();
  });

  it('explains a 412 when the webhook changed elsewhere while the form was open', async () => {
    const page = await openPage(WRITER);
    const row = page.locator('article', { hasText: receiverUrl });
    await row.getByRole('button', { name: /^Edit / }).click();
    const id = await row.getAttribute('data-id');
    const current = await api(`/v1/webhooks/${id}`);
    const webhook = (await current.json()) as { url: string; events: string[]; description: string };
    await api(`/v1/webhooks/${id}`, {
      method: 'PUT',
      headers: { 'if-match': current.headers.get('etag')! },
      body: JSON.stringify({ url: webhook.url, events: webhook.events, description: 'changed elsewhere' }),
    });
    await page.getByLabel('Description (optional)').fill('my edit');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#form-problem').textContent()).toContain('changed elsewhere since you opened it (412');
    await page.close();
  });

  it('disables, re-enables and deletes with a confirmation', async () => {
    const url = `${receiverUrl}/toggle`;
    await api('/v1/webhooks', { method: 'POST', body: JSON.stringify({ url, events: ['scan.completed'] }) });
    const page = await openPage(WRITER);
    const row = () => page.locator('article', { has: page.getByRole('heading', { name: url, exact: true }) });
    await expect.poll(() => row().count()).toBe(1);
    await row()
      .getByRole('button', { name: /^Disable / })
      .click();
    await expect.poll(() => row().locator('dd').first().textContent()).toBe('Disabled');
    await row()
      .getByRole('button', { name: /^Enable / })
      .click();
    await expect.poll(() => row().locator('dd').first().textContent()).toBe('Enabled');
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await row()
      .getByRole('button', { name: /^Delete / })
      .click();
    await expect.poll(() => row().count()).toBe(0);
    expect(dialogs).toEqual([`Delete the webhook for ${url}? Deliveries still pending for it are dropped.`]);
    const listed = (await (await api('/v1/webhooks?limit=100')).json()) as { data: { url: string }[] };
    expect(listed.data.map((w) => w.url)).not.toContain(url);
    await page.close();
  });

  it('shows the problem and each field error next to its field', async () => {
    const page = await openPage(WRITER);
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('Receiver URL').fill('ftp://files.example.com/hooks');
    await page.getByLabel('Secret', { exact: true }).fill('too-short');
    await page.getByRole('button', { name: 'Save' }).click();
    // In words, from the document's constraints: the field, what is wrong, what is allowed.
    await expect.poll(() => page.locator('#wh-events-error').textContent()).toBe('Event types: choose at least 1.');
    expect(await page.locator('#wh-url-error').textContent()).toBe(
      'Receiver URL must be a full web address starting with http:// or https:// and without spaces.',
    );
    expect(await page.locator('#wh-secret-error').textContent()).toBe('Secret is too short: 9 characters, at least 16 needed.');
    expect(await page.locator('#form-problem').textContent()).toBe('Some fields need a change: see the message under each.');
    expect(await page.getByLabel('Receiver URL').getAttribute('aria-invalid')).toBe('true');
    // What only the server knows (a refused address) is shown in its words next to the field.
    await page.getByLabel('scan.completed').check();
    await page.getByLabel('Secret', { exact: true }).fill('');
    await page.getByLabel('No secret').check();
    await page.getByLabel('Receiver URL').fill('http://169.254.169.254/latest/hooks');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#form-problem').textContent()).toMatch(/^Webhook URL not allowed: /);
    expect(await page.locator('#wh-url-error').textContent()).toContain('cloud metadata address');
    await page.close();
  });

  it('gives a read-only key disabled write controls with the reason, and no way to change anything', async () => {
    const page = await openPage(READER, 360);
    expect(await page.locator('#scope-note').textContent()).toContain('This key is read-only');
    expect(await page.getByRole('button', { name: 'New webhook' }).isDisabled()).toBe(true);
    expect(await page.locator('#write-reason').textContent()).toBe('Changing webhooks needs a key with the write scope.');
    const row = page.locator('article', { hasText: receiverUrl });
    for (const name of [/^Edit /, /^Disable /, /^Delete /]) expect(await row.getByRole('button', { name }).isDisabled()).toBe(true);
    await page.screenshot({ path: join(artifactsDir, 'settings-read-only-360px.png'), fullPage: true });
    await page.close();
  });

  it('generates a secret shown once with a copy button; deliveries verify with it; replacing it says the old one works 24 hours', async () => {
    const url = `${receiverUrl}/generated`;
    const page = await openPage(WRITER);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('Receiver URL').fill(url);
    await page.getByLabel('scan.completed').check();
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    const secret = await page.getByLabel('Secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(await page.getByLabel('Secret', { exact: true }).getAttribute('type')).toBe('text');
    expect(await page.locator('#wh-secret-once').textContent()).toContain('shown only this once');
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain(`Created the webhook for ${url}`);

    // The row shows the id; the secret is nowhere on the page any more, and the form never shows it again.
    const row = page.locator('article', { has: page.getByRole('heading', { name: url, exact: true }) });
    const id = (await row.getAttribute('data-id'))!;
    expect(await row.textContent()).toContain(id);
    expect(await page.content()).not.toContain(secret.slice(6));
    await row.getByRole('button', { name: /^Edit / }).click();
    expect(await page.getByLabel('Secret', { exact: true }).inputValue()).toBe('');
    expect(await page.locator('#wh-secret-once').isHidden()).toBe(true);

    // Replacing it: the page says the old secret stays valid, and a test event verifies with both.
    await page.getByLabel('Replace the secret').check();
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    const next = await page.getByLabel('Secret', { exact: true }).inputValue();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain('The previous secret stays valid for 24 hours');
    const before = received.length;
    await row.getByRole('button', { name: /Send test event/ }).click();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBeGreaterThan(before);
    const delivery = received.at(-1)!;
    expect(delivery.path).toBe('/hooks/generated');
    for (const key of [secret, next])
      expect(verifyWebhook(delivery.raw, delivery.headers as Record<string, string>, key).event).toBe('scan.completed');
    await page.close();
  });

  it('sends a test event only to the webhook of its row, though another subscribes to the type', async () => {
    const urls = [`${receiverUrl}/one`, `${receiverUrl}/two`];
    for (const url of urls) await api('/v1/webhooks', { method: 'POST', body: JSON.stringify({ url, events: ['device.disconnected'] }) });
    const page = await openPage(WRITER);
    const before = received.length;
    const row = page.locator('article', { has: page.getByRole('heading', { name: urls[0], exact: true }) });
    await row.getByRole('button', { name: /Send test event/ }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent(), { timeout: 20_000 })
      .toContain('Test device.disconnected event: delivery succeeded (204)');
    // The other webhook would have been sent to at the same time: give it the same time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.slice(before).map((r) => r.path)).toEqual(['/hooks/one']);
    await page.close();
  });

  it('works with the keyboard alone: a webhook created without the mouse', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/settings/integrations`);
    await page.keyboard.press('Tab'); // the docs link
    await page.keyboard.press('Tab');
    await page.keyboard.type(WRITER);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'New webhook' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(ACTIVE_ID)).toBe('wh-url');
    await page.keyboard.type(`${receiverUrl}/keyboard`);
    const tabTo = async (id: string) => {
      for (let presses = 0; presses < 20 && (await page.evaluate(ACTIVE_ID)) !== id; presses++) await page.keyboard.press('Tab');
      expect(await page.evaluate(ACTIVE_ID)).toBe(id);
    };
    await tabTo('wh-event-finding.created');
    await page.keyboard.press('Space');
    await tabTo('wh-event-finding.resolved');
    await page.keyboard.press('Space');
    await tabTo('wh-secret');
    await page.keyboard.type(SECRET);
    await tabTo('save');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`Created the webhook for ${receiverUrl}/keyboard`);
    await page.close();
  });

  it('passes axe-core with no serious or critical violation, and loads nothing from another host', async () => {
    // The page's Content-Security-Policy forbids inline scripts, axe's included: bypassed for the audit only.
    const page = await openPage(WRITER, 1200, true);
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.addScriptTag({ content: AXE });
    const violations = await page.evaluate(async () => {
      const result = await (
        globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }
      ).axe.run();
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
    });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    expect([...requestedHosts]).toEqual([new URL(server.url).host]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
