// Schema-driven input generation with fast-check: valid values from a JSON Schema (types, enums,
// const, bounds, patterns, formats, oneOf, closed objects) and invalid mutations of a valid value
// (wrong types, missing required, unknown fields, out-of-bound strings/numbers/arrays, bad enums,
// patterns and formats). Every result is re-checked with Ajv by the caller's `isValid`, so a
// generator bug can produce fewer cases but never a wrongly-labelled one.
import fc from 'fast-check';
import { type OpenApiDocument, resolveRef } from 'secmon-api/src/document';
import { inAnotherCase } from './axes/field-values.ts';

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  pattern?: string;
  format?: string;
  additionalProperties?: unknown;
  unevaluatedProperties?: unknown;
};

export interface GeneratorOptions {
  /** Replaces the arbitrary of any schema reached through this `$ref` (a URL the target can reach, an existing id). */
  overrides?: Record<string, fc.Arbitrary<unknown>>;
  /** Values for `format: uri` strings: callback URLs must point somewhere the target can deliver to. */
  urlArbitrary?: fc.Arbitrary<string>;
}

/** Longest generated free-text string, so bodies stay small; boundary cases still hit maxLength exactly. */
const SHORT_TEXT = 24;
const MAX_GENERATED_ITEMS = 3;

/** Whether a string's length is within a schema's `minLength` and `maxLength`. */
const lengthWithin = (min: number, max: number) => (value: string) => value.length >= min && value.length <= max;

// Building a pattern's arbitrary walks the whole regular expression (tens of milliseconds for an id
// pattern with a repeated class); arbitraries are immutable, so each pattern is built once per process.
const patternArbitraries = new Map<string, fc.Arbitrary<string>>();
function patternArbitrary(pattern: string, min: number, max: number): fc.Arbitrary<string> {
  const key = `${min}:${max}:${pattern}`;
  let built = patternArbitraries.get(key);
  if (!built) {
    built = fc.stringMatching(new RegExp(pattern)).filter(lengthWithin(min, max));
    patternArbitraries.set(key, built);
  }
  return built;
}

export function createGenerator(doc: OpenApiDocument, options: GeneratorOptions = {}) {
  const overrides = options.overrides ?? {};
  const deref = (schema: Schema): Schema => resolveRef<Schema>(doc, schema as Schema & { $ref: string });

  function arbitrary(schema: Schema): fc.Arbitrary<unknown> {
    if (schema.$ref) {
      const override = overrides[schema.$ref];
      return override ?? arbitrary(deref(schema));
    }
    if ('const' in schema) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const branches = schema.oneOf ?? schema.anyOf;
    if (branches) return fc.oneof(...branches.map(arbitrary));
    // `allOf: [$ref]` with annotations is how the document marks a shared schema read-only; the
    // conditional `allOf` (if/then) is left to the caller's Ajv filter.
    if (schema.allOf && !schema.type && !schema.properties) return arbitrary(schema.allOf[0]!);
    const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    if (types.length > 1) return fc.oneof(...types.map((type) => arbitrary({ ...schema, type })));
    switch (types[0]) {
      case 'string':
        return stringArbitrary(schema);
      case 'integer':
        return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
      case 'number':
        return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return arrayArbitrary(schema);
      case 'object':
        return objectArbitrary(schema);
      default:
        return fc.constant(null);
    }
  }

  function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? 256;
    const fits = lengthWithin(min, max);
    switch (schema.format) {
      case 'date-time':
        return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date(), noInvalidDate: true }).map((date) => date.toISOString());
      case 'uri':
        return (options.urlArbitrary ?? fc.webUrl({ validSchemes: ['https'] })).filter(fits);
      case 'uuid':
        return fc.uuid();
      case 'hostname':
        return fc.domain().filter(fits);
      case 'ipv4':
        return fc.ipV4();
      default:
        break;
    }
    if (schema.pattern) return patternArbitrary(schema.pattern, min, max);
    const short = fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max, SHORT_TEXT)) });
    return max > SHORT_TEXT ? fc.oneof({ weight: 5, arbitrary: short }, { weight: 1, arbitrary: fc.constant('x'.repeat(max)) }) : short;
  }

  function arrayArbitrary(schema: Schema): fc.Arbitrary<unknown[]> {
    const item = arbitrary(schema.items ?? {});
    const constraints = {
      minLength: schema.minItems ?? 0,
      maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? MAX_GENERATED_ITEMS, MAX_GENERATED_ITEMS)),
    };
    return schema.uniqueItems
      ? fc.uniqueArray(item, { ...constraints, selector: (value) => JSON.stringify(value) })
      : fc.array(item, constraints);
  }

  function objectArbitrary(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
    const properties = Object.fromEntries(
      Object.entries(schema.properties ?? {})
        .filter(([, property]) => !isReadOnly(property))
        .map(([name, property]) => [name, arbitrary(property)]),
    );
    return fc.record(properties, { requiredKeys: (schema.required ?? []).filter((name) => name in properties) }) as fc.Arbitrary<
      Record<string, unknown>
    >;
  }

  function isReadOnly(schema: Schema): boolean {
    return schema.readOnly === true;
  }

  /** Candidate invalid variants of a valid value, each with the JSON pointer and what was broken. */
  function mutations(schema: Schema, value: unknown, at = ''): Mutation[] {
    const node = flatten(schema);
    const out: Mutation[] = [];
    const here = at || '/';
    for (const wrong of wrongTypeValues(node)) out.push({ at: here, what: `wrong type (${describe(wrong)})`, value: wrong });
    if (node.type === 'string') {
      const text = typeof value === 'string' ? value : 'x'.repeat(Math.max(node.minLength ?? 1, 1));
      if (node.maxLength !== undefined)
        out.push({ at: here, what: `longer than maxLength ${node.maxLength}`, value: 'y'.repeat(node.maxLength + 1) });
      if (node.minLength)
        out.push({ at: here, what: `shorter than minLength ${node.minLength}`, value: text.slice(0, node.minLength - 1) });
      if (node.pattern)
        out.push(...badPatternValues(text).map((bad) => ({ at: here, what: `does not match ${node.pattern}`, value: bad })));
      if (node.format) out.push({ at: here, what: `not a ${node.format}`, value: `not a ${node.format} %%` });
    }
    if (node.type === 'integer' || node.type === 'number') {
      if (node.maximum !== undefined) out.push({ at: here, what: `above maximum ${node.maximum}`, value: node.maximum + 1 });
      if (node.minimum !== undefined) out.push({ at: here, what: `below minimum ${node.minimum}`, value: node.minimum - 1 });
      if (node.type === 'integer') out.push({ at: here, what: 'not an integer', value: (node.minimum ?? 0) + 0.5 });
    }
    if (node.enum || 'const' in node) {
      out.push({ at: here, what: 'not one of the allowed values', value: 'not_an_allowed_value' });
      // An allowed value in another case: a service that compares case-insensitively takes it.
      const allowed = ('const' in node ? [node.const] : (node.enum ?? [])).filter((v): v is string => typeof v === 'string');
      const variant = inAnotherCase(allowed);
      if (variant !== undefined) out.push({ at: here, what: 'an allowed value in another case', value: variant });
    }
    if (Array.isArray(value)) {
      if (node.maxItems !== undefined && value.length > 0) {
        out.push({
          at: here,
          what: `more than maxItems ${node.maxItems}`,
          value: Array.from({ length: node.maxItems + 1 }, (_, i) => value[i % value.length]),
        });
      }
      if (node.minItems) out.push({ at: here, what: `fewer than minItems ${node.minItems}`, value: [] });
      if (node.uniqueItems && value.length > 0) out.push({ at: here, what: 'duplicate items', value: [...value, value[0]] });
      if (value.length > 0 && node.items) {
        for (const nested of mutations(node.items, value[0], `${at}/0`)) out.push(nested);
      }
    }
    if (isPlainObject(value) && node.properties) {
      for (const name of node.required ?? []) {
        out.push({ at: `${at}/${name}`, what: 'required property missing', value: undefined });
      }
      if (node.additionalProperties === false || node.unevaluatedProperties === false) {
        out.push({ at: `${at}/unknown_field_x`, what: 'unknown property', value: 'surprise' });
      }
      for (const [name, property] of Object.entries(node.properties)) {
        for (const nested of mutations(property, value[name], `${at}/${name}`)) out.push(nested);
      }
    }
    return out;
  }

  /** Follows `$ref` and single-branch `allOf`; for `oneOf [X, null]` returns X (the interesting branch). */
  function flatten(schema: Schema): Schema {
    let node = schema;
    for (let hops = 0; hops < 16; hops++) {
      if (node.$ref) node = deref(node);
      else if (node.allOf && node.allOf.length === 1 && !node.type) node = node.allOf[0]!;
      else if (node.oneOf && !node.type) node = node.oneOf.find((branch) => (branch as Schema).type !== 'null') ?? node.oneOf[0]!;
      else break;
    }
    return node;
  }

  return { arbitrary: (schema: Schema) => arbitrary(schema), mutations: (schema: Schema, value: unknown) => mutations(schema, value) };
}

export interface Mutation {
  /** JSON pointer into the value; `/` for the value itself. */
  at: string;
  what: string;
  /** The replacement; `undefined` deletes the property. */
  value: unknown;
}

/** The value with one mutation applied (a deep copy). */
export function applyMutation(base: unknown, mutation: Mutation): unknown {
  if (mutation.at === '/') return mutation.value;
  const copy = structuredClone(base) as Record<string, unknown>;
  const parts = mutation.at.split('/').slice(1);
  let node: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next !== 'object' || next === null) {
      node[part] = {};
    }
    node = node[part] as Record<string, unknown>;
  }
  const last = parts.at(-1)!;
  if (mutation.value === undefined) delete node[last];
  else node[last] = mutation.value;
  return copy;
}

function wrongTypeValues(schema: Schema): unknown[] {
  const candidates: [string, unknown][] = [
    ['string', 'a string'],
    ['integer', 7],
    ['boolean', true],
    ['null', null],
    ['array', ['x']],
    ['object', { x: 1 }],
  ];
  const allowed = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (allowed.length === 0) return [];
  return candidates.filter(([type]) => !allowed.includes(type) && !(type === 'integer' && allowed.includes('number'))).map(([, v]) => v);
}

function badPatternValues(value: string): string[] {
  return [`${value.slice(0, -1)}!`, value.toUpperCase() === value ? `x${value}` : value.toUpperCase(), `zz${value.slice(2)}`];
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deterministic, bounded samples of an arbitrary (the run's seed makes failures reproducible). */
export function samples<T>(arbitrary: fc.Arbitrary<T>, count: number, seed: number): T[] {
  return fc.sample(arbitrary, { numRuns: count, seed });
}
