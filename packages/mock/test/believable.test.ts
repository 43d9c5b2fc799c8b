// Generated (--dynamic) items made believable: dates in a sensible range and in order, small
// versions, a resolution only on a closed finding — deterministically, and still within the schemas.
import { describe, expect, it } from 'vitest';
import { believable } from '../src/believable.ts';

describe('believable', () => {
  const generated = {
    data: [
      {
        id: 'fnd_a',
        status: 'in_progress',
        resolution: { reason: 'fixed', comment: '' },
        resolved_at: '8011-03-04T05:06:07Z',
        version: 298378030,
        created_at: '0074-01-01T00:00:00Z',
        updated_at: '2025-05-05T05:05:05Z',
      },
      {
        id: 'fnd_b',
        status: 'resolved',
        resolution: { reason: 'fixed', comment: '' },
        resolved_at: '2026-01-02T03:04:05Z',
        version: 3,
        created_at: '2026-02-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
      },
    ],
    next_cursor: null,
  };

  it('keeps dates in 2020–2026 and created before updated, versions small, resolutions on closed findings only', () => {
    const [open, closed] = (believable(generated) as typeof generated).data as Record<string, unknown>[];
    for (const item of [open!, closed!]) {
      for (const field of ['created_at', 'updated_at']) expect(Number(String(item[field]).slice(0, 4))).toBeGreaterThanOrEqual(2020);
      expect(String(item.created_at) <= String(item.updated_at)).toBe(true);
      expect(String(item.created_at)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
    expect(open!.version).toBeLessThanOrEqual(50);
    expect([open!.resolution, open!.resolved_at]).toEqual([null, null]);
    expect(closed).toMatchObject({ resolution: { reason: 'fixed' }, resolved_at: '2026-01-02T03:04:05Z', version: 3 });
  });

  it('is deterministic, so a seeded dynamic mock stays repeatable', () => {
    expect(believable(generated)).toEqual(believable(generated));
  });
});
