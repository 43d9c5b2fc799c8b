// The values at a schema keyword's boundary, inside and outside, for one body member or query
// parameter: strings at their length limits in astral characters, integers at their minimum and
// maximum and one beyond, a URL padded from a valid one, timestamps beside the
// document's profile, enum and const values in another case, arrays at their item limits and with
// a repeated item, and the same for the members of a nested object or of an array's items (sent
// as one item), each with the pointer below the member that a refusal names.
import type { OpenApiDocument } from 'secmon-api/src/document';
import { flatten, type Schema } from './schema-fields.ts';

export const DATE_TIME = 'date-time profile (Z only)';

/** An astral character (U+1F512, the lock): one character, two UTF-16 units, four UTF-8 bytes. */
export const ASTRAL = '\u{1F512}';
const ASTRAL_TEST = /[\u{10000}-\u{10FFFF}]/u;
/** Whether a string has exactly n characters; bounded by its UTF-16 length first (n to 2n units), so long bodies cost nothing. */
const hasChars = (value: string, n: number) => value.length >= n && value.length <= 2 * n && Array.from(value).length === n;
const RFC3339_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;

const isString = (value: unknown): value is string => typeof value === 'string';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** One boundary value of a member: its keyword's axis, the cell, and how to recognise it sent. */
export interface MemberValue {
  keyword: string;
  cell: string;
  inside: boolean;
  value: unknown;
  matches(value: unknown): boolean;
  /** The value built from the member's generated valid one, where no fixed value is valid everywhere (a URL the target must reach). */
  valueFor?(generated: unknown): unknown;
  /** The pointer below the member's own that a refusal names (`/0/control`); none for the member itself. */
  below?: string;
}

/**
 * A valid instance of a simple schema (a const, an enum's first member, a plain string at its
 * minimum length, an object of its required members), or undefined; `salt` makes plain strings,
 * and so instances, differ, so that n of them are n distinct items a service has no reason to merge.
 */
export function minimalOf(doc: OpenApiDocument, node: unknown, salt = 0): unknown {
  const schema = flatten(doc, node);
  if ('const' in schema) return schema.const;
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

/**
 * An allowed text value in another case that is not itself allowed (`rego` → `REGO`, `LOW` → `low`):
 * a service that compares case-insensitively takes it. Undefined when every spelling is allowed.
 */
export function inAnotherCase(allowed: string[]): string | undefined {
  return allowed.map((v) => (v.toUpperCase() === v ? v.toLowerCase() : v.toUpperCase())).find((v) => !allowed.includes(v));
}

function caseVariant(keyword: string, allowed: string[]): MemberValue | undefined {
  const beside = inAnotherCase(allowed);
  if (beside === undefined) return undefined;
  return {
    keyword,
    cell: `${beside} (a member in another case)`,
    inside: false,
    value: beside,
    matches: (v) => isString(v) && !allowed.includes(v) && allowed.some((m) => m.toLowerCase() === v.toLowerCase()),
  };
}

/** The boundary values of a member that is not an array or object; `enumsInside` adds each enum member as an inside value. */
export function scalarValues(schema: Schema, enumsInside: boolean): MemberValue[] {
  const values: MemberValue[] = [];
  const urlMax = schema.format === 'uri' ? (schema.maxLength as number | undefined) : undefined;
  if (schema.type === 'string' && urlMax !== undefined) {
    // No fixed URL is one every target accepts and reaches: the generated one, padded in its path or query.
    const padded = (n: number) => (generated: unknown) =>
      isString(generated) ? generated + 'x'.repeat(Math.max(0, n - generated.length)) : generated;
    const isUrl = (n: number) => (v: unknown) => isString(v) && v.length === n && /^https?:\/\//.test(v);
    for (const [n, inside] of [
      [urlMax, true],
      [urlMax + 1, false],
    ] as const)
      values.push({
        keyword: `maxLength ${urlMax}`,
        cell: `a URL of ${n} characters`,
        inside,
        value: undefined,
        matches: isUrl(n),
        valueFor: padded(n),
      });
  }
  const plain = schema.type === 'string' && schema.pattern === undefined && schema.format === undefined && !('const' in schema);
  const length = (keyword: string, n: number, inside: boolean, text: string, cell: string) =>
    values.push({ keyword, cell, inside, value: text, matches: (v) => isString(v) && hasChars(v, n) && (!inside || ASTRAL_TEST.test(v)) });
  const max = schema.maxLength as number | undefined;
  const min = schema.minLength as number | undefined;
  if (plain && max !== undefined) {
    length(`maxLength ${max}`, max, true, ASTRAL.repeat(max), `${max} astral characters`);
    length(`maxLength ${max}`, max + 1, false, ASTRAL.repeat(max + 1), `${max + 1} characters`);
  }
  if (plain && min !== undefined && min > 0) {
    length(`minLength ${min}`, min, true, ASTRAL.repeat(min), plural(min, 'astral character'));
    length(`minLength ${min}`, min - 1, false, 'x'.repeat(min - 1), `${min - 1} characters`);
  }
  if (schema.format === 'date-time' && typeof schema.pattern === 'string' && schema.pattern.endsWith('Z$')) {
    const at = '2026-11-02T09:30:00.123Z';
    values.push({
      keyword: DATE_TIME,
      cell: 'UTC with Z and fractional seconds',
      inside: true,
      value: at,
      matches: (v) => isString(v) && /\.\d+Z$/.test(v),
    });
    values.push({
      keyword: DATE_TIME,
      cell: 'RFC 3339 with an offset instead of Z',
      inside: false,
      value: '2026-11-02T10:30:00+01:00',
      matches: (v) => isString(v) && RFC3339_OFFSET.test(v),
    });
  }
  if (schema.type === 'integer') {
    const bound = (keyword: string, n: number, inside: boolean) =>
      values.push({ keyword, cell: String(n), inside, value: n, matches: (v) => v === n || v === String(n) });
    if (typeof schema.minimum === 'number') {
      bound(`minimum ${schema.minimum}`, schema.minimum, true);
      bound(`minimum ${schema.minimum}`, schema.minimum - 1, false);
    }
    if (typeof schema.maximum === 'number') {
      bound(`maximum ${schema.maximum}`, schema.maximum, true);
      bound(`maximum ${schema.maximum}`, schema.maximum + 1, false);
    }
  }
  const members = ('const' in schema ? [schema.const] : ((schema.enum as unknown[] | undefined) ?? [])).filter(isString);
  if (enumsInside)
    for (const member of members) values.push({ keyword: 'enum', cell: member, inside: true, value: member, matches: (v) => v === member });
  const variant = caseVariant('const' in schema ? 'const' : 'enum', members);
  if (variant) values.push(variant);
  return values;
}

/**
 * An array's item limits, inside and outside, and a repeated item where items must be unique: valid
 * items are distinct enum members, or minimal valid items made distinct (a limit is left out when n
 * distinct items cannot be made).
 */
function arrayValues(doc: OpenApiDocument, schema: Schema): MemberValue[] {
  const one = minimalOf(doc, schema.items);
  if (one === undefined) return [];
  const members = (flatten(doc, schema.items).enum as unknown[] | undefined) ?? [];
  const itemsOf = (n: number) => {
    const items = members.length > 0 ? members.slice(0, n) : Array.from({ length: n }, (_, i) => minimalOf(doc, schema.items, i));
    return items.length === n && new Set(items.map((item) => JSON.stringify(item))).size === n ? items : undefined;
  };
  const values: MemberValue[] = [];
  const limit = (keyword: string, n: number, inside: boolean) => {
    const value = itemsOf(n);
    if (value) values.push({ keyword, cell: plural(n, 'item'), inside, value, matches: (v) => Array.isArray(v) && v.length === n });
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
  if (schema.uniqueItems === true)
    values.push({
      keyword: 'uniqueItems',
      cell: 'one item twice',
      inside: false,
      value: [one, one],
      matches: (v) => Array.isArray(v) && v.length === 2 && JSON.stringify(v[0]) === JSON.stringify(v[1]),
    });
  return values;
}

/**
 * The boundary values of the members of an object (a nested member, or the one item of an array of
 * objects), each in an otherwise minimal valid instance; enum members inside are left to the
 * generated valid bodies, which send them. `at` names the members in the axis and the pointer.
 */
function nestedValues(
  doc: OpenApiDocument,
  object: Schema,
  at: { label: string; pointer: string; wrap(item: unknown): unknown; unwrap(value: unknown): unknown },
): MemberValue[] {
  const base = minimalOf(doc, object);
  if (!isObject(base)) return [];
  const properties = (object.properties as Record<string, unknown> | undefined) ?? {};
  return Object.entries(properties).flatMap(([name, node]) =>
    scalarValues(flatten(doc, node), false).map(
      (value): MemberValue => ({
        ...value,
        keyword: `${at.label}${name} ${value.keyword}`,
        value: at.wrap({ ...base, [name]: value.value }),
        matches: (v) => {
          const inner = at.unwrap(v);
          return isObject(inner) && value.matches(inner[name]);
        },
        below: `${at.pointer}${name}`,
      }),
    ),
  );
}

/** Whether a member's values include its own members' (an object, or an array of objects). */
export function isComposite(doc: OpenApiDocument, schema: Schema): boolean {
  return schema.type === 'object' || (schema.type === 'array' && flatten(doc, schema.items).type === 'object');
}

/** Every boundary value of a member of a request body. */
export function memberValues(doc: OpenApiDocument, schema: Schema): MemberValue[] {
  if (schema.type === 'array') {
    const items = flatten(doc, schema.items);
    const one = (v: unknown) => (Array.isArray(v) && v.length === 1 ? v[0] : undefined);
    const nested =
      items.type === 'object' ? nestedValues(doc, items, { label: '[].', pointer: '/0/', wrap: (item) => [item], unwrap: one }) : [];
    return [...arrayValues(doc, schema), ...nested];
  }
  if (schema.type === 'object') return nestedValues(doc, schema, { label: '.', pointer: '/', wrap: (item) => item, unwrap: (v) => v });
  return scalarValues(schema, true);
}
