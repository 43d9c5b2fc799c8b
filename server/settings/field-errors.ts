// Field errors in words a person understands, generated from the document's constraints: the body
// the page is about to send is checked against the operation's request schema in the document,
// and each failure is described from the keyword and the field's own schema (its bounds, pattern,
// enum). Nothing here names a field, so a constraint changed in the document changes the message
// with it; the field's name comes from the form's own label. The server stays the judge: what
// this does not check (an address it refuses) comes back as its problem. Ajv is not used here
// because it compiles validators with `new Function`, which the page's Content-Security-Policy
// (no 'unsafe-eval') rightly forbids; the keywords the request schemas use are few.
import type { OpenAPIV3_1 } from 'openapi-types';
import { loadDocument, type OpenApiDocument, resolveRef } from '../../packages/api/src/document.ts';

export interface FieldError {
  /** `/body/<field>`, as in a problem's `errors`. */
  pointer: string;
  message: string;
}

type Schema = OpenAPIV3_1.SchemaObject;
/** A field's schema with its `null` branch folded in, and the items of a list. */
type FieldSchema = Schema & { nullable?: boolean; items?: Schema };
interface Failure {
  keyword: string;
  limit?: number;
  allowed?: unknown[];
}

let document: OpenApiDocument | undefined;

/**
 * The errors of `body` against the component schema `schemaName`, one per field (the first
 * constraint it breaks), each a sentence starting with the field's label.
 */
export function fieldErrors(schemaName: string, body: Record<string, unknown>, labelOf: (field: string) => string): FieldError[] {
  document ??= loadDocument();
  const root = resolveRef<Schema>(document, { $ref: `#/components/schemas/${schemaName}` });
  const errors: FieldError[] = [];
  for (const field of Object.keys(root.properties ?? {})) {
    const value = body[field];
    const schema = fieldSchema(document, root, field);
    const failure =
      value === undefined ? (root.required?.includes(field) ? { keyword: 'required' } : undefined) : check(document, schema, value);
    if (failure) errors.push({ pointer: `/body/${field}`, message: describe(failure, labelOf(field), schema, value) });
  }
  return errors;
}

/** The field's schema, following `$ref`s; of a `oneOf` with `null`, the branch that is not null. */
function fieldSchema(doc: OpenApiDocument, root: Schema, field: string): FieldSchema {
  const schema = resolveRef<FieldSchema>(doc, (root.properties?.[field] ?? {}) as FieldSchema);
  const branches = (schema.oneOf ?? schema.anyOf ?? []).map((branch) => resolveRef<Schema>(doc, branch as Schema));
  const notNull = branches.find((branch) => branch.type !== 'null');
  if (!notNull) return schema;
  return {
    ...notNull,
    ...schema,
    oneOf: undefined,
    anyOf: undefined,
    nullable: branches.some((branch) => branch.type === 'null'),
  } as unknown as FieldSchema;
}

/** The first constraint of `schema` that `value` breaks, in the order a person fixes them. */
function check(doc: OpenApiDocument, schema: FieldSchema, value: unknown): Failure | undefined {
  if (value === null) return schema.nullable ? undefined : { keyword: 'type' };
  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) return { keyword: 'minLength', limit: schema.minLength };
    if (schema.maxLength !== undefined && length > schema.maxLength) return { keyword: 'maxLength', limit: schema.maxLength };
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return { keyword: 'pattern' };
    if (schema.format === 'uri' && !URL.canParse(value)) return { keyword: 'format' };
    if (schema.enum && !schema.enum.includes(value)) return { keyword: 'enum', allowed: schema.enum };
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return { keyword: 'minItems', limit: schema.minItems };
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return { keyword: 'maxItems', limit: schema.maxItems };
    if (schema.uniqueItems && new Set(value).size !== value.length) return { keyword: 'uniqueItems' };
    const items = schema.items ? resolveRef<Schema>(doc, schema.items as Schema) : undefined;
    if (items?.enum && value.some((item) => !items.enum!.includes(item))) return { keyword: 'enum', allowed: items.enum };
  }
  return undefined;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function describe(failure: Failure, label: string, schema: Schema, value: unknown): string {
  const length = typeof value === 'string' ? [...value].length : 0;
  switch (failure.keyword) {
    case 'required':
      return `${label} is required.`;
    case 'minLength':
      return length === 0
        ? `${label} is required (at least ${plural(failure.limit!, 'character')}).`
        : `${label} is too short: ${plural(length, 'character')}, at least ${failure.limit} needed.`;
    case 'maxLength':
      return `${label} is too long: ${plural(length, 'character')}, at most ${failure.limit} allowed.`;
    case 'minItems':
      return `${label}: choose at least ${failure.limit}.`;
    case 'maxItems':
      return `${label}: choose at most ${failure.limit}.`;
    case 'uniqueItems':
      return `${label}: each one may be chosen only once.`;
    case 'enum':
      return `${label} must be one of ${failure.allowed!.join(', ')}.`;
    case 'pattern':
    case 'format':
      return `${label} ${shapeOf(schema)}.`;
    default:
      return `${label} must be ${schema.type === 'array' ? 'a list' : schema.type === 'string' ? 'text' : String(schema.type)}.`;
  }
}

/**
 * What a value must look like, read from the schema's `format` and the simple patterns the
 * document uses (a literal start with optional characters, a run without spaces); any other
 * pattern is quoted.
 */
function shapeOf(schema: Schema): string {
  const head = schema.format === 'uri' ? 'a full web address' : schema.format ? `a valid ${schema.format}` : 'text';
  const qualifiers: string[] = [];
  const pattern = schema.pattern;
  if (pattern) {
    const prefix = /^\^((?:[A-Za-z0-9:/_-]\??)+)/.exec(pattern)?.[1];
    const rest = prefix ? pattern.slice(1 + prefix.length) : pattern;
    if (prefix) qualifiers.push(`starting with ${expandOptional(prefix).join(' or ')}`);
    if (/^\[\^\\s\][+*]\$$/.test(rest)) qualifiers.push('without spaces');
    else if (rest !== '$' && rest !== '') qualifiers.push(`in the form ${pattern}`);
  }
  return `must be ${head}${qualifiers.length > 0 ? ` ${qualifiers.join(' and ')}` : ''}`;
}

/** `https?://` → ['http://', 'https://']. */
function expandOptional(literal: string): string[] {
  let variants = [''];
  for (let i = 0; i < literal.length; i++) {
    const char = literal[i]!;
    if (literal[i + 1] === '?') {
      variants = variants.flatMap((variant) => [variant, variant + char]);
      i++;
    } else variants = variants.map((variant) => variant + char);
  }
  return variants;
}
