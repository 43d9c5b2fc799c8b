// Formats are checked in full, as the document's validator (packages/api/src/schema-validator.ts) checks them:
// an impossible date-time is a 400 and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_ID, PROBLEM, readProblem, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('date-time fields', () => {
  it.each(['2026-02-30T10:00:00Z', '2026-01-01T25:00:00Z', '2026-01-01T10:61:00Z'])(
    '%s is refused with 400 and not stored',
    async (when) => {
      const before = await (await t.fetch('/v1/findings?limit=100')).text();
      const response = await t.fetch('/v1/findings', {
        method: 'POST',
        json: { title: 't', severity: 'low', device_id: DEVICE_ID, first_seen_at: when },
      });
      expect(response.status).toBe(400);
      const problem = await readProblem(response);
      expect(problem.type).toBe(PROBLEM('validation-error'));
      expect(problem.errors?.map((error) => error.pointer)).toContain('/body/first_seen_at');
      expect(await (await t.fetch('/v1/findings?limit=100')).text()).toBe(before);
    },
  );

  it('a real date-time is still accepted', async () => {
    const response = await t.fetch('/v1/findings', {
      method: 'POST',
      json: { title: 't', severity: 'low', device_id: DEVICE_ID, first_seen_at: '2024-02-29T23:59:59Z' },
    });
    expect(response.status).toBe(201);
  });
});
