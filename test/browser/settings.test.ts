// Settings → Integrations as a person uses it, in Debian's Chromium against a reference server in
// development mode (./settings-page.ts): a key, a webhook created through the page to a loopback
// receiver, a delivery seen on the page, a test event, a 412 explained, field errors and a
// read-only key. Generated secrets, keyboard-only use and accessibility: settings-access.test.ts.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactsDir } from './docs-in-browser.ts';
import { integrationsPage, READER, SECRET, WRITER } from './settings-page.ts';

const ui = integrationsPage();
const { openPage, api, received, requestedHosts, pageErrors } = ui;

describe('Settings → Integrations in Chromium', () => {
  it('creates a webhook with two event types and a secret, then shows the delivery of an event made through the API', async () => {
    const page = await openPage(WRITER);
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('Receiver URL').fill(ui.receiverUrl);
    await page.getByLabel('finding.created').check();
    await page.getByLabel('compliance.changed').check();
    await page.getByLabel('Description (optional)').fill('On-call pager');
    await page.getByLabel('Secret', { exact: true }).fill(SECRET);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`Created the webhook for ${ui.receiverUrl}`);
    const row = page.locator('article', { hasText: ui.receiverUrl });
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
          return page.locator('article', { hasText: ui.receiverUrl }).textContent();
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
    const row = page.locator('article', { hasText: ui.receiverUrl });
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
    const row = page.locator('article', { hasText: ui.receiverUrl });
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
    const url = `${ui.receiverUrl}/toggle`;
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
    const row = page.locator('article', { hasText: ui.receiverUrl });
    for (const name of [/^Edit /, /^Disable /, /^Delete /]) expect(await row.getByRole('button', { name }).isDisabled()).toBe(true);
    await page.screenshot({ path: join(artifactsDir, 'settings-read-only-360px.png'), fullPage: true });
    await page.close();
  });

  it('loads nothing from another host and meets no page error', () => {
    expect([...requestedHosts]).toEqual([new URL(ui.server().url).host]);
    expect(pageErrors).toEqual([]);
  });
});
