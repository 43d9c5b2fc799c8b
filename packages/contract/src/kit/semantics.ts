// Rules the document states in prose that JSON Schema cannot express, which valid-input
// generation must respect so that "valid" really means "the contract says 2xx". Each rule cites
// the description it comes from; everything else is derived from the schemas.
import type { OpenApiDocument } from 'secmon-api/src/document';
import { type ContractModel, type OperationModel, schemaAt } from './spec.ts';

/** The request body limit the document states in *Limits* ("Request bodies up to 1 MiB"), in bytes. */
export function bodyLimitBytes(doc: OpenApiDocument): number | undefined {
  const match = /bodies up to (\d+) MiB/i.exec(doc.info.description ?? '');
  return match ? Number(match[1]) * 1024 * 1024 : undefined;
}

/**
 * FindingCreate: "`first_seen_at` and `last_seen_at` default to the time of creation, and
 * `last_seen_at` may not be earlier than `first_seen_at`". A past `last_seen_at` alone would be
 * earlier than the defaulted `first_seen_at`, so it gets an explicit `first_seen_at`.
 */
export function orderSeenTimes(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('last_seen_at' in body)) return body;
  const record = body as Record<string, unknown>;
  const last = record.last_seen_at;
  const first = record.first_seen_at ?? last;
  if (typeof first !== 'string' || typeof last !== 'string') return body;
  return last < first ? { ...record, first_seen_at: last, last_seen_at: first } : { ...record, first_seen_at: first };
}

/**
 * Query parameters a client never invents: "Cursors are opaque ... Pass `next_cursor` back as
 * `cursor`" (document, *Pagination*). A schema-valid made-up cursor is rightly refused with 400.
 */
export const SERVER_ISSUED_PARAMS = new Set(['cursor']);

export interface Transitions {
  /** The property that carries the state (`status`). */
  property: string;
  /** from → allowed targets (a state to itself is always allowed: "not a transition"). */
  allowed: Map<string, Set<string>>;
}

/**
 * The state machine of a resource, read from the `| from | to |` table in the description of
 * the enum its update body's state property uses (FindingStatus). Undefined when there is none.
 */
export function transitionsOf(model: ContractModel, update: OperationModel | undefined): Transitions | undefined {
  if (!update?.body) return undefined;
  const body = schemaAt(model.doc, update.body.pointer);
  for (const [property, schema] of Object.entries((body.properties ?? {}) as Record<string, { $ref?: string }>)) {
    if (!schema.$ref) continue;
    const target = schemaAt(model.doc, schema.$ref);
    if (!Array.isArray(target.enum) || typeof target.description !== 'string') continue;
    const allowed = new Map<string, Set<string>>();
    for (const line of target.description.split('\n')) {
      const cells = line.split('|').map((cell) => cell.trim());
      if (cells.length < 4) continue;
      const from = /^`([a-z_]+)`$/.exec(cells[1]!)?.[1];
      const targets = [...cells[2]!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!);
      if (from && target.enum.includes(from) && targets.length > 0) allowed.set(from, new Set(targets));
    }
    if (allowed.size > 0) return { property, allowed };
  }
  return undefined;
}
