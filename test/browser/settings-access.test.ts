// Settings → Integrations in Chromium (./settings-page.ts), continued: a generated secret shown once
// and rotated, a test event reaching only its webhook, keyboard-only use, and an axe-core
// accessibility check with nothing loaded from another host.
import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../packages/api/src/verify-webhook.ts';
import { ACTIVE_ID, AXE, integrationsPage, SECRET, WRITER } from './settings-page.ts';

const ui = integrationsPage();
const { openPage, api, received, requestedHosts, pageErrors } = ui;

describe('Settings → Integrations in Chromium: secrets, routing, keyboard, accessibility', () => {
  it('generates a secret shown once with a copy button; deliveries verify with it; replacing it says the old one works 24 hours', async () => {
    const url = `${ui.receiverUrl}/generated`;
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
    const urls = [`${ui.receiverUrl}/one`, `${ui.receiverUrl}/two`];
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
    const page = await ui.browser().newPage();
    await page.goto(`${ui.server().url}/settings/integrations`);
    await page.keyboard.press('Tab'); // the docs link
    await page.keyboard.press('Tab');
    await page.keyboard.type(WRITER);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'New webhook' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(ACTIVE_ID)).toBe('wh-url');
    await page.keyboard.type(`${ui.receiverUrl}/keyboard`);
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
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`Created the webhook for ${ui.receiverUrl}/keyboard`);
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
    expect([...requestedHosts]).toEqual([new URL(ui.server().url).host]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
