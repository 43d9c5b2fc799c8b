// Each request schema keyword's boundary, inside and outside, derived from the document: the
// values of each body member and of its own members (field-values.ts); unknown members whose JSON
// Pointer needs escaping (`~`, `/`); and per operation with a body, the media-type spellings HTTP
// treats as equal to `application/json`, one that is not, and an empty body.
import { escapePointer, type OpenApiDocument, resolveRef } from 'secmon-api/src/document';
import type { Exchange } from '../http.ts';
import type { ContractModel, OperationModel } from '../spec.ts';
import { isComposite, memberValues } from './field-values.ts';
import { type BodySchema, bodySchema, type Schema } from './schema-fields.ts';
import type { Cell } from './space.ts';

export { DATE_TIME } from './field-values.ts';
export const BOUNDARIES = 'boundaries';
export const MEDIA_TYPES = 'media types';

/** A cell of a body field: the value that exercises it, whether the document accepts it, and how to recognise it sent. */
export interface FieldCell extends Cell {
  schemaName: string;
  field: string;
  inside: boolean;
  value: unknown;
  /** The value to send built from the field's generated valid one, where a fixed value cannot be valid (a URL the target must accept). */
  valueFor?(generated: unknown): unknown;
  matches(value: unknown): boolean;
  /**
   * What a refusal's errors may point at: the member itself, or for a value of one of its own
   * members, that member or any pointer between (a validator may name the nullable or the item
   * that failed as a whole).
   */
  pointers: string[];
}

/** A cell of an operation's body as a whole: how it is sent, and whether the document accepts it. */
export interface MediaCell extends Cell {
  op: OperationModel;
  contentType: string;
  /** The body is sent empty. */
  empty: boolean;
  /** The status class the document gives it: 2xx (accepted), 415 or 400. */
  expected: '2xx' | 415 | 400;
}

/** Names of unknown members whose pointer segments are `~0` and `~1`. */
export const ESCAPED_NAMES = ['kit~tilde', 'kit/slash'];

/** Members a condition of the body schema ties to another (`resolution` to `status`): no value of their own members is valid alone. */
function conditionalMembers(doc: OpenApiDocument, body: BodySchema): Set<string> {
  const raw = resolveRef<Schema>(doc, (doc.components?.schemas as Record<string, Schema> | undefined)?.[body.name] ?? {});
  const conditions = JSON.stringify(raw.allOf ?? []);
  return new Set(body.fields.map((field) => field.name).filter((name) => conditions.includes(`"${name}"`)));
}

/** `member`, and with `below` (`/0/control`) every pointer from the innermost up to `member`. */
function pointersDown(member: string, below = ''): string[] {
  const parts = below.split('/').slice(1);
  return parts.map((_, i) => `${member}/${parts.slice(0, parts.length - i).join('/')}`).concat(member);
}

function fieldCells(doc: OpenApiDocument, body: BodySchema): FieldCell[] {
  const cells: FieldCell[] = [];
  const conditional = conditionalMembers(doc, body);
  for (const { name, schema } of body.fields) {
    if (conditional.has(name) && isComposite(doc, schema)) continue;
    for (const { keyword, cell, inside, value, matches, valueFor, below } of memberValues(doc, schema))
      cells.push({
        family: BOUNDARIES,
        axis: `${body.name}.${name}${/^[.[]/.test(keyword) ? '' : ' '}${keyword}`,
        cell: `${cell} (${inside ? 'inside' : 'outside'})`,
        schemaName: body.name,
        field: name,
        inside,
        value,
        matches,
        pointers: pointersDown(`/body/${escapePointer(name)}`, below),
        ...(valueFor ? { valueFor } : {}),
      });
  }
  if (body.schema.additionalProperties === false) {
    for (const unknown of ESCAPED_NAMES) {
      const segment = escapePointer(unknown);
      cells.push({
        family: BOUNDARIES,
        axis: `${body.name} additionalProperties false`,
        cell: `unknown member "${unknown}", pointer /body/${segment} (outside)`,
        schemaName: body.name,
        field: unknown,
        inside: false,
        value: 1,
        matches: () => true,
        pointers: [`/body/${segment}`],
      });
    }
  }
  return cells;
}

/** The spellings of the body's media type: equal ones (case, a charset parameter, spaces), another type, and none at all. */
function mediaCells(op: OperationModel): MediaCell[] {
  const cell = (spelling: string, contentType: string, expected: MediaCell['expected'], empty = false): MediaCell => ({
    family: MEDIA_TYPES,
    axis: op.label,
    cell: spelling,
    op,
    contentType,
    empty,
    expected,
  });
  return [
    cell('application/json (inside)', 'application/json', '2xx'),
    cell('Application/JSON, another case (inside)', 'Application/JSON', '2xx'),
    cell('application/json; charset=utf-8 (inside)', 'application/json; charset=utf-8', '2xx'),
    cell('application/json;charset="UTF-8", quoted, no space (inside)', 'application/json;charset="UTF-8"', '2xx'),
    cell('text/plain, another type (outside: 415)', 'text/plain', 415),
    cell('application/json with an empty body (outside: 400)', 'application/json', 400, true),
  ];
}

export function bodySchemas(doc: OpenApiDocument, model: ContractModel): Map<OperationModel, BodySchema> {
  return new Map(
    model.operations
      .flatMap((op) => (op.kind === 'unknown' ? [] : [[op, bodySchema(doc, op)] as const]))
      .filter((e): e is [OperationModel, BodySchema] => e[1] !== undefined),
  );
}

/** The operation that sends a body schema's field cells: the first that takes it, a create before an update. */
export function sendersOf(model: ContractModel): Map<string, OperationModel> {
  const senders = new Map<string, OperationModel>();
  const ordered = [...bodySchemas(model.doc, model)].sort(([a], [b]) => Number(b.kind === 'create') - Number(a.kind === 'create'));
  for (const [op, body] of ordered) if (!senders.has(body.name)) senders.set(body.name, op);
  return senders;
}

/** Every boundary cell of the document: each body schema's once (however many operations take it), each operation's media types. */
export function boundaryCells(model: ContractModel): { fields: FieldCell[]; media: MediaCell[] } {
  const schemas = bodySchemas(model.doc, model);
  const seen = new Set<string>();
  const fields: FieldCell[] = [];
  for (const body of schemas.values()) {
    if (seen.has(body.name)) continue;
    seen.add(body.name);
    fields.push(...fieldCells(model.doc, body));
  }
  return { fields, media: [...schemas.keys()].flatMap(mediaCells) };
}

/** The boundary cells one sent request exercised (its body's members, its media type). */
export function boundaryCellsOf(
  cells: { fields: FieldCell[]; media: MediaCell[] },
  op: OperationModel,
  body: BodySchema,
  exchange: Exchange,
): Cell[] {
  const found: Cell[] = [];
  const sent = exchange.request.body;
  const type = exchange.request.headers['Content-Type'] ?? exchange.request.headers['content-type'];
  for (const cell of cells.media.filter((c) => c.op === op)) {
    if (cell.empty ? sent === '' && type === cell.contentType : sent !== undefined && sent !== '' && type === cell.contentType)
      found.push(cell);
  }
  let json: unknown;
  try {
    json = sent ? JSON.parse(sent) : undefined;
  } catch {
    return found;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return found;
  const members = json as Record<string, unknown>;
  // A value inside a boundary is exercised only where the answer says the body was taken as valid.
  const refused = exchange.status === 400 || exchange.status === 413 || exchange.status === 415;
  for (const cell of cells.fields) {
    if (cell.schemaName !== body.name || !(cell.field in members) || (cell.inside && refused)) continue;
    if (cell.matches(members[cell.field])) found.push(cell);
  }
  return found;
}

export type { Schema };
