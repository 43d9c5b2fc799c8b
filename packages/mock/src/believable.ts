// --dynamic answers are generated from the schemas, which allow more than real data ever holds:
// years 0074 and 8011, a version of 298378030, a resolution on a finding still in progress. These
// rules make generated items look like the service's, deterministically (the seeded generator stays
// repeatable), and always within the schemas.

const SOON = Date.UTC(2026, 10, 1);
const YEAR_MS = 365 * 24 * 3600 * 1000;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const CLOSED = new Set(['resolved', 'suppressed']);

/** A stable number in [0, 1) from text, so the same generated value always maps to the same one. */
function unit(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0) / 2 ** 32;
}

/** Within the last year, to the second, in the document's timestamp form. */
const recent = (seed: string) => new Date(SOON - Math.floor((unit(seed) * YEAR_MS) / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export function believable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(believable);
  if (typeof value !== 'object' || value === null) return value;
  const item: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === 'string' && key.endsWith('_at') && TIMESTAMP.test(field)) {
      const year = Number(field.slice(0, 4));
      item[key] = year >= 2020 && year <= 2026 ? field : recent(field);
    } else if (key === 'version' && typeof field === 'number' && field > 50) {
      item[key] = 1 + (field % 50);
    } else {
      item[key] = believable(field);
    }
  }
  // Created before updated, first seen before last seen.
  for (const [earlier, later] of [
    ['created_at', 'updated_at'],
    ['first_seen_at', 'last_seen_at'],
  ] as const) {
    if (typeof item[earlier] === 'string' && typeof item[later] === 'string' && item[earlier] > item[later])
      [item[earlier], item[later]] = [item[later], item[earlier]];
  }
  // A finding carries a resolution (and a resolved time) only once it is closed.
  if (typeof item.status === 'string' && 'resolution' in item && !CLOSED.has(item.status)) {
    item.resolution = null;
    if ('resolved_at' in item) item.resolved_at = null;
  }
  return item;
}
