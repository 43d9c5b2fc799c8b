// The kit's schema-driven generator, on every request body of the document: valid samples really
// validate, invalid ones really do not, and the invalid cases cover every kind of break.
import { afterAll, describe, expect, it } from 'vitest';
import { createKitContext } from '../src/kit/context.ts';

// No request is sent: bodies are only generated (the receiver the URL override points at is local).
const ctx = createKitContext({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused-key', profile: 'stateless' });
const withBodies = ctx.model.operations.filter((op) => op.body);

afterAll(() => ctx.cleanup());

describe('schema-driven generation', () => {
  it('finds request bodies to generate for', () => {
    expect(withBodies.map((op) => op.operationId)).toEqual([
      'createPolicy',
      'updatePolicy',
      'createFinding',
      'updateFinding',
      'createWebhook',
      'updateWebhook',
    ]);
  });

  for (const op of withBodies) {
    it(`${op.operationId}: valid bodies validate and vary`, async () => {
      const bodies = await ctx.validBodies(op, 30);
      expect(bodies).toHaveLength(30);
      for (const body of bodies) expect(ctx.validator.validate(op.body!.pointer, body)).toEqual({ valid: true });
      expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBeGreaterThan(20);
    });

    it(`${op.operationId}: invalid bodies are invalid and cover every kind of break`, async () => {
      const cases = await ctx.invalidBodies(op, 40);
      expect(cases.length).toBeGreaterThanOrEqual(20);
      for (const { body } of cases) expect(ctx.validator.validate(op.body!.pointer, body).valid).toBe(false);
      const kinds = new Set(cases.map(({ mutation }) => mutation.what.replace(/ .*/, '')));
      for (const kind of ['wrong', 'required', 'unknown', 'longer']) expect(kinds).toContain(kind);
    });
  }

  it('is repeatable for a seed', async () => {
    const op = withBodies[0]!;
    const again = createKitContext({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused-key', profile: 'stateless' });
    const [a, b] = [await ctx.invalidBodies(op, 10), await again.invalidBodies(op, 10)];
    expect(b.map((c) => c.mutation)).toEqual(a.map((c) => c.mutation));
    await again.cleanup();
  });
});
