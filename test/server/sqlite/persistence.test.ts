// Data written, server stopped, server started on the same file: everything reads back identical.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { DEVICE_ID, querySql, startTestServer } from '../helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'secmon-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function readEverything(fetcher: Awaited<ReturnType<typeof startTestServer>>) {
  const out: Record<string, string> = {};
  for (const list of ['policies', 'findings', 'webhooks']) {
    const page = await fetcher.fetch(`/v1/${list}?limit=100`);
    out[list] = await page.text();
    for (const item of JSON.parse(out[list]).data) {
      const single = await fetcher.fetch(`/v1/${list}/${item.id}`);
      out[item.id] = `${single.headers.get('etag')} ${await single.text()}`;
    }
  }
  return out;
}

it('survives a restart on the same database file (WAL), idempotency records included', async () => {
  const database = join(dir, 'nested', 'secmon.db');
  const first = await startTestServer({ database });
  const policy = await (
    await first.fetch('/v1/policies', {
      method: 'POST',
      json: {
        name: 'p',
        severity: 'high',
        frameworks: [{ framework: 'soc2', control: 'CC6.1' }],
        rule: { language: 'rego', source: 'package x' },
      },
    })
  ).json();
  const finding = await (
    await first.fetch('/v1/findings', { method: 'POST', json: { title: 'f', severity: 'low', device_id: DEVICE_ID, policy_id: policy.id } })
  ).json();
  await first.fetch(`/v1/findings/${finding.id}`, {
    method: 'PUT',
    json: {
      title: 'f',
      severity: 'low',
      status: 'suppressed',
      resolution: { reason: 'accepted_risk', comment: 'ok' },
      policy_id: policy.id,
    },
  });
  await first.fetch('/v1/webhooks', {
    method: 'POST',
    json: { url: 'https://a.example.com/h', events: ['scan.completed'], secret: 'persisted-secret-123' },
  });
  const idempotent = await first.fetch('/v1/policies', {
    method: 'POST',
    json: { name: 'once', severity: 'low' },
    headers: { 'Idempotency-Key': 'restart-key' },
  });
  const [journal] = await querySql(first.server, 'PRAGMA journal_mode');
  const before = await readEverything(first);
  await first.close();

  const second = await startTestServer({ database });
  try {
    expect(journal).toEqual({ journal_mode: 'wal' });
    expect(await readEverything(second)).toEqual(before);
    expect(Object.keys(before)).toHaveLength(3 + 4);
    const replay = await second.fetch('/v1/policies', {
      method: 'POST',
      json: { name: 'once', severity: 'low' },
      headers: { 'Idempotency-Key': 'restart-key' },
    });
    expect(await replay.text()).toBe(await idempotent.text());
  } finally {
    await second.close();
  }
});
