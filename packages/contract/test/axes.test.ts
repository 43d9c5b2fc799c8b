// The behaviour space: its cells come from the document. That a default run against the reference
// server exercises every cell a run from outside can reach is proven on the packed kit, with the
// README's line against `npm start` (test/packages/contract.test.ts).
import { loadDocument } from 'secmon-api/src/document';
import { describe, expect, it } from 'vitest';
import { statedStatuses } from '../src/kit/axes/answers.ts';
import { inAnotherCase } from '../src/kit/axes/field-values.ts';
import { behaviourSpace } from '../src/kit/axes/index.ts';
import { cellKey } from '../src/kit/axes/space.ts';
import { buildModel } from '../src/kit/spec.ts';

const model = buildModel(loadDocument());
const keys = new Set(behaviourSpace(model).map(cellKey));

describe('the behaviour space, from the document', () => {
  it('has every finding status change, to itself included, as the status enum and its transition table give them', () => {
    for (const [from, to, kind] of [
      ['resolved', 'resolved', 'the status it has'],
      ['resolved', 'suppressed', 'refused'],
      ['in_progress', 'open', 'allowed'],
    ])
      expect(keys).toContain(`states | findings status change | ${from} → ${to} (${kind})`);
  });

  it('has each body schema keyword at its boundary, inside and outside, in characters', () => {
    expect(keys).toContain('boundaries | PolicyWrite.name maxLength 128 | 128 astral characters (inside)');
    expect(keys).toContain('boundaries | PolicyWrite.name maxLength 128 | 129 characters (outside)');
    expect(keys).toContain(
      'boundaries | FindingCreate.first_seen_at date-time profile (Z only) | RFC 3339 with an offset instead of Z (outside)',
    );
    expect(keys).toContain(
      'boundaries | WebhookCreate additionalProperties false | unknown member "kit/slash", pointer /body/kit~1slash (outside)',
    );
  });

  it('has the media-type spellings of every operation that takes a body, and a cross-cutting cell per stated status', () => {
    const withBody = model.operations.filter((op) => op.body);
    for (const op of withBody) expect(keys).toContain(`media types | ${op.label} | application/json; charset=utf-8 (inside)`);
    const statuses = new Set(model.operations.flatMap((op) => [...op.responses.keys()].filter((s) => /^\d{3}$/.test(s)).map(Number)));
    expect(statedStatuses(model)).toEqual([...statuses].sort((a, b) => a - b));
    for (const status of statuses) expect(keys).toContain(`cross-cutting rules | CORS (allow-origin, exposed headers) | ${status}`);
  });

  it('spells an allowed value in another case only where that spelling is not allowed too (one rule for the cells and the generated mutations)', () => {
    expect(inAnotherCase(['rego', 'cel'])).toBe('REGO');
    expect(inAnotherCase(['LOW', 'high'])).toBe('low');
    expect(inAnotherCase(['low', 'LOW', 'High'])).toBe('HIGH');
    expect(inAnotherCase(['a', 'A'])).toBeUndefined();
    expect(keys).toContain('boundaries | FindingCreate.severity enum | INFO (a member in another case) (outside)');
  });
});
