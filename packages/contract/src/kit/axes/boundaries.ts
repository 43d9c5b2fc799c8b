// Each request schema keyword's boundary, inside and outside, derived from the document: lengths
// at the limit counted in characters (astral ones, which are two UTF-16 units and four UTF-8
// bytes), one over it, and a URL's length padded from a valid one; arrays at their item limits and
// with a repeated item where items must be unique; timestamps in the general RFC 3339 format but outside the document's
// profile (an offset instead of `Z`); enum members and a value beside them; unknown members whose
// JSON Pointer needs escaping (`~`, `/`); and per operation with a body, the media-type spellings
// HTTP treats as equal to `application/json`, one that is not, and an empty body.
import { escapePointer, type OpenApiDocument } from 'secmon-api/src/document';
import type { Exchange } from '../http.ts';
import type { ContractModel, OperationModel } from '../spec.ts';
import { type BodySchema, bodySchema, flatten, type Schema } from './schema-fields.ts';
import type { Cell } from './space.ts';

export const BOUNDARIES = 'boundaries';
export const MEDIA_TYPES = 'media types';
export const DATE_TIME = 'date-time profile (Z only)';

/** A cell of a body field: the value that exercises it, whether the document accepts it, and how to recognise it sent. */
export interface FieldCell extends Cell {
  schemaName: string;
  field: string;
  inside: boolean;
  value: unknown;
  /** The value to send built from the field's generated valid one, where a fixed value cannot be valid (a URL the target must accept). */
  valueFor?(generated: unknown): unknown;
  matches(value: unknown): boolean;
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

/** An astral character (U+1F512, the lock): one character, two UTF-16 units, four UTF-8 bytes. */
export const ASTRAL = '\u{1F512}';
const ASTRAL_TEST = /[\u{10000}-\u{10FFFF}]/u;
/** Whether a string has exactly n characters; bounded by its UTF-16 length first (n to 2n units), so long bodies cost nothing. */
const hasChars = (value: string, n: number) => value.length >= n && value.length <= 2 * n && Array.from(value).length === n;
const RFC3339_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;
/** Names of unknown members whose pointer segments are `~0` and `~1`. */
export const ESCAPED_NAMES = ['kit~tilde', 'kit/slash'];

const isString = (value: unknown): value is string => typeof value === 'string';
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * A valid instance of a simple schema (an enum's first member, a plain string at its minimum length,
 * an object of its required members), or undefined; `salt` makes plain strings, and so instances,
 * differ, so that n of them are n distinct items a service has no reason to merge.
 */
function minimalOf(doc: OpenApiDocument, node: unknown, salt = 0): unknown {
  const schema = flatten(doc, node);
  const members = schema.enum as unknown[] | undefined;
  if (members && members.length > 0) return members[0];
  if (schema.type === 'string' && schema.pattern === undefined && schema.format === undefined) {
    const text = `k${salt}`.padEnd((schema.minLength as number | undefined) ?? 1, 'k');
    return text.length <= ((schema.maxLength as number | undefined) ?? Infinity) ? text : undefined;
  }
  if (schema.type !== 'object') return undefined;
  const properties = (schema.properties as Record<string, unknown> | undefined) ?? {};
  const entries = ((schema.required as string[] | undefined) ?? []).map((name) => [name, minimalOf(doc, properties[name], salt)] as const);
  return entries.every(([, value]) => value !== undefined) ? Object.fromEntries(entries) : undefined;
}

function fieldCells(doc: OpenApiDocument, body: BodySchema): FieldCell[] {
  const cells: FieldCell[] = [];
  const add = (
    field: string,
    keyword: string,
    cell: string,
    inside: boolean,
    value: unknown,
    matches: (v: unknown) => boolean,
    valueFor?: (generated: unknown) => unknown,
  ) =>
    cells.push({
      family: BOUNDARIES,
      axis: `${body.name}.${field} ${keyword}`,
      cell: `${cell} (${inside ? 'inside' : 'outside'})`,
      schemaName: body.name,
      field,
      inside,
      value,
      matches,
      ...(valueFor ? { valueFor } : {}),
    });
  for (const { name, schema } of body.fields) {
    if (schema.type === 'array') {
      for (const cell of arrayCells(doc, schema)) add(name, cell.keyword, cell.cell, cell.inside, cell.value, cell.matches);
      continue;
    }
    const urlMax = schema.format === 'uri' ? (schema.maxLength as number | undefined) : undefined;
    if (schema.type === 'string' && urlMax !== undefined) {
      // No fixed URL is one every target accepts and reaches: the generated one, padded in its path or query.
      const padded = (n: number) => (generated: unknown) =>
        isString(generated) ? generated + 'x'.repeat(Math.max(0, n - generated.length)) : generated;
      const isUrl = (n: number) => (v: unknown) => isString(v) && v.length === n && /^https?:\/\//.test(v);
      add(name, `maxLength ${urlMax}`, `a URL of ${urlMax} characters`, true, undefined, isUrl(urlMax), padded(urlMax));
      add(name, `maxLength ${urlMax}`, `a URL of ${urlMax + 1} characters`, false, undefined, isUrl(urlMax + 1), padded(urlMax + 1));
    }
    const constrained = schema.pattern !== undefined || schema.format !== undefined;
    const max = schema.maxLength as number | undefined;
    const min = schema.minLength as number | undefined;
    if (schema.type === 'string' && !constrained && max !== undefined) {
      add(
        name,
        `maxLength ${max}`,
        `${max} astral characters`,
        true,
        ASTRAL.repeat(max),
        (v) => isString(v) && hasChars(v, max) && ASTRAL_TEST.test(v),
      );
      add(name, `maxLength ${max}`, `${max + 1} characters`, false, ASTRAL.repeat(max + 1), (v) => isString(v) && hasChars(v, max + 1));
    }
    if (schema.type === 'string' && !constrained && min !== undefined && min > 0) {
      add(
        name,
        `minLength ${min}`,
        `${min} astral character${min === 1 ? '' : 's'}`,
        true,
        ASTRAL.repeat(min),
        (v) => isString(v) && hasChars(v, min) && ASTRAL_TEST.test(v),
      );
      add(name, `minLength ${min}`, `${min - 1} characters`, false, 'x'.repeat(min - 1), (v) => isString(v) && hasChars(v, min - 1));
    }
    if (schema.format === 'date-time' && typeof schema.pattern === 'string' && schema.pattern.endsWith('Z$')) {
      add(name, DATE_TIME, 'UTC with Z and fractional seconds', true, '2026-11-02T09:30:00.123Z', (v) => isString(v) && /\.\d+Z$/.test(v));
      add(
        name,
        DATE_TIME,
        'RFC 3339 with an offset instead of Z',
        false,
        '2026-11-02T10:30:00+01:00',
        (v) => isString(v) && RFC3339_OFFSET.test(v),
      );
    }
    const members = (schema.enum as unknown[] | undefined)?.filter(isString);
    if (members && members.length > 0) {
      for (const member of members) add(name, 'enum', member, true, member, (v) => v === member);
      const beside = members[0]!.toUpperCase() === members[0] ? `${members[0]}_KIT` : members[0]!.toUpperCase();
      add(
        name,
        'enum',
        `${beside} (a member in another case)`,
        false,
        beside,
        (v) => isString(v) && !members.includes(v) && members.some((m) => m.toLowerCase() === v.toLowerCase()),
      );
    }
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
      });
    }
  }
  return cells;
}

/**
 * An array's item limits, inside and outside, and a repeated item where items must be unique: valid
 * items are distinct enum members, or minimal valid items made distinct (undefined when n distinct
 * items cannot be made).
 */
function arrayCells(doc: OpenApiDocument, schema: Schema) {
  const one = minimalOf(doc, schema.items);
  if (one === undefined) return [];
  const unique = schema.uniqueItems === true;
  const members = (flatten(doc, schema.items).enum as unknown[] | undefined) ?? [];
  const itemsOf = (n: number) => {
    const items = members.length > 0 ? members.slice(0, n) : Array.from({ length: n }, (_, i) => minimalOf(doc, schema.items, i));
    return items.length === n && new Set(items.map((item) => JSON.stringify(item))).size === n ? items : undefined;
  };
  const ofLength = (n: number) => (v: unknown) => Array.isArray(v) && v.length === n;
  const cells: { keyword: string; cell: string; inside: boolean; value: unknown; matches: (v: unknown) => boolean }[] = [];
  const limit = (keyword: string, n: number, inside: boolean) => {
    const value = itemsOf(n);
    if (value) cells.push({ keyword, cell: plural(n, 'item'), inside, value, matches: ofLength(n) });
  };
  const max = schema.maxItems as number | undefined;
  const min = schema.minItems as number | undefined;
  if (max !== undefined) {
    limit(`maxItems ${max}`, max, true);
    limit(`maxItems ${max}`, max + 1, false);
  }
  if (min !== undefined && min > 0) {
    limit(`minItems ${min}`, min, true);
    limit(`minItems ${min}`, min - 1, false);
  }
  if (unique)
    cells.push({
      keyword: 'uniqueItems',
      cell: 'one item twice',
      inside: false,
      value: [one, one],
      matches: (v) => Array.isArray(v) && v.length === 2 && JSON.stringify(v[0]) === JSON.stringify(v[1]),
    });
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
