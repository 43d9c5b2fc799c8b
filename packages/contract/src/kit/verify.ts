// Checks one response against what the document says of its operation: the status is documented,
// the content type is one of the documented ones, the body validates against that status's schema
// (Ajv 2020 + formats), and every required header is present and matches its header schema.
import type { ErrorObject } from 'ajv';
import type { OpenApiDocument } from 'secmon-api/src/document';
import { readerView } from 'secmon-api/src/reader-view';
import { createSchemaValidator, type SchemaValidator } from 'secmon-api/src/schema-validator';
import type { Exchange, SentRequest } from './http.ts';
import type { RuleId } from './rules/catalogue.ts';
import type { HeaderModel, OperationModel, ResponseModel } from './spec.ts';

export type Aspect = 'documented-status' | 'content-type' | 'response-schema' | 'headers' | 'signature' | 'expectation';

/** One thing an exchange or a delivery does against the document, as a check finds it. */
export interface Discrepancy {
  aspect: Aspect;
  message: string;
  /** Ajv error paths with the offending values, or other specifics. */
  details: string[];
  /** The catalogue rule it breaks, when the check judges one. */
  rule?: RuleId;
  /** Where in the document what it breaks is stated (a schema, a response), when it is not a rule. */
  pointer?: string;
  /** What the document asks instead, when the message alone does not say it. */
  expected?: string;
  /** The field, parameter, header or transition involved, when the message alone does not say it. */
  subject?: string;
}

/** The same discrepancy once per rule it breaks, so the report's first line names each; as is when none. */
export const naming = (discrepancy: Discrepancy, rules: readonly RuleId[]): Discrepancy[] =>
  rules.length === 0 ? [discrepancy] : rules.map((rule) => ({ ...discrepancy, rule }));

/**
 * What the kit checks response and event bodies with. Strict by default: an implementation of this
 * exact version sends only the fields and enum values the document lists. `allowNewerFields`
 * (`--allow-newer-fields`) checks a target ahead of the document as a v1 client reads it, with the
 * additions the Versioning section allows within v1 accepted and everything else still checked.
 */
export function sentBodyValidator(doc: OpenApiDocument, strict: SchemaValidator, allowNewerFields: boolean): SchemaValidator {
  return allowNewerFields ? createSchemaValidator(readerView(doc)) : strict;
}

// The Versioning rule each kind of schema failure breaks, so a report says why it is one.
const VERSIONING_RULE: Record<string, string> = {
  additionalProperties:
    'Versioning: an implementation of this exact version sends only the fields the document lists (a newer v1 may add fields; check such a target with --allow-newer-fields)',
  enum: 'Versioning: an implementation of this exact version sends only the enum values the document lists (a newer v1 may add values; check such a target with --allow-newer-fields)',
};
VERSIONING_RULE.unevaluatedProperties = VERSIONING_RULE.additionalProperties!;

const BOUNDS = new Set(['maxLength', 'minLength', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'maxItems', 'minItems']);

/** The catalogue rule a schema failure of a sent body breaks: an unlisted field or value, or a bound or identifier form. */
function schemaRule(errors: ErrorObject[]): RuleId | undefined {
  if (errors.some((error) => error.keyword in VERSIONING_RULE)) return 'versioning.14';
  const bounds = (error: ErrorObject) =>
    BOUNDS.has(error.keyword) || (error.keyword === 'pattern' && /(^|\/|_)id$/.test(error.instancePath));
  return errors.some(bounds) ? 'limits.2' : undefined;
}

/** Violations of the document by one response; empty when it conforms. */
export function conformance(validator: SchemaValidator, op: OperationModel, exchange: Exchange): Discrepancy[] {
  const response =
    op.responses.get(String(exchange.status)) ?? op.responses.get(`${String(exchange.status)[0]}XX`) ?? op.responses.get('default');
  if (!response) {
    return [
      {
        aspect: 'documented-status',
        message: `status ${exchange.status} is not documented (documented: ${[...op.responses.keys()].join(', ')})`,
        details: [],
        expected: `one of the documented statuses ${[...op.responses.keys()].join(', ')}`,
      },
    ];
  }
  return [...bodyViolations(validator, response, exchange), ...headerViolations(validator, response.headers, exchange.headers)];
}

function bodyViolations(validator: SchemaValidator, response: ResponseModel, exchange: Exchange): Discrepancy[] {
  if (response.content.size === 0) {
    return exchange.text === ''
      ? []
      : [
          {
            aspect: 'content-type',
            message: `status ${exchange.status} documents no body, got ${exchange.text.length} bytes`,
            details: [],
          },
        ];
  }
  const pointer = response.content.get(exchange.mediaType);
  if (!pointer) {
    return [
      {
        aspect: 'content-type',
        message: `Content-Type '${exchange.mediaType || '(none)'}' is not documented for ${exchange.status} (documented: ${[...response.content.keys()].join(', ')})`,
        details: [],
      },
    ];
  }
  if (exchange.json === undefined) {
    return [{ aspect: 'response-schema', message: 'the body is not valid JSON', details: [truncate(exchange.text)] }];
  }
  const result = validator.validate(pointer, exchange.json);
  if (result.valid) return [];
  const rule = schemaRule(result.errors);
  return [
    {
      ...(rule ? { rule } : {}),
      aspect: 'response-schema',
      message: `the ${exchange.status} body breaks its schema (${pointer})`,
      details: ajvDetails(result.errors, exchange.json),
      pointer,
      expected: `a body valid against ${pointer}`,
    },
  ];
}

/** Checks required headers (and present optional ones) against their schemas. */
export function headerViolations(validator: SchemaValidator, headers: HeaderModel[], received: Headers): Discrepancy[] {
  const out: Discrepancy[] = [];
  for (const header of headers) {
    const value = received.get(header.name);
    if (value === null) {
      if (header.required)
        out.push({ aspect: 'headers', message: `required header ${header.name} is missing`, pointer: header.pointer, details: [] });
      continue;
    }
    const typed = /^\d+$/.test(value) ? [value, Number(value)] : [value];
    if (typed.some((candidate) => validator.validate(header.pointer, candidate).valid)) continue;
    const result = validator.validate(header.pointer, typed.at(-1));
    out.push({
      aspect: 'headers',
      message: `header ${header.name} does not match its schema (${header.pointer})`,
      pointer: header.pointer,
      details: [`${header.name}: ${JSON.stringify(value)}`, ...(result.valid ? [] : result.errors.map((e) => `${e.message ?? ''}`))],
    });
  }
  return out;
}

/** `instancePath: message (value: ...)` for each Ajv error, with the offending value looked up. */
export function ajvDetails(errors: ErrorObject[], value: unknown): string[] {
  const rules = [...new Set(errors.map((error) => VERSIONING_RULE[error.keyword]).filter((rule) => rule !== undefined))];
  return [...errorLines(errors, value), ...rules];
}

function errorLines(errors: ErrorObject[], value: unknown): string[] {
  return errors.slice(0, 12).map((error) => {
    const offending = pointerGet(value, error.instancePath);
    const extra =
      error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties'
        ? ` '${String((error.params as Record<string, unknown>).additionalProperty ?? (error.params as Record<string, unknown>).unevaluatedProperty)}'`
        : error.keyword === 'required'
          ? ` '${String((error.params as { missingProperty: string }).missingProperty)}'`
          : '';
    const message = error.message ?? error.keyword;
    // Ajv's `required` message already quotes the missing property.
    return `${error.instancePath || '/'} ${message}${message.includes(extra.trim()) ? '' : extra} (value: ${truncate(JSON.stringify(offending) ?? 'undefined', 120)})`;
  });
}

function pointerGet(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
}

export function truncate(text: string, max = 400): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** An API exchange, or a delivery the kit received shown as one. */
export type JudgedExchange = { request: SentRequest; status?: number; mediaType?: string; text?: string };

/** A broken contract: names the operation, the check, the request and what in the response broke. */
export class ContractViolation extends Error {
  override name = 'ContractViolation';
  readonly operation: string;
  readonly check: string;
  readonly violations: Discrepancy[];
  /** The exchange judged, when there is one (the last of the sequence that led to the failure). */
  readonly judged: JudgedExchange | undefined;

  constructor(operation: string, check: string, violations: Discrepancy[], exchange?: JudgedExchange) {
    super(formatViolation(operation, check, violations, exchange));
    this.operation = operation;
    this.check = check;
    this.violations = violations;
    this.judged = exchange;
  }
}

function formatViolation(operation: string, check: string, violations: Discrepancy[], exchange?: JudgedExchange): string {
  const lines = [`${operation} — check "${check}" failed`];
  for (const violation of violations) {
    lines.push(`  ✗ [${violation.aspect}] ${violation.rule ? `rule ${violation.rule}: ` : ''}${violation.message}`);
    for (const detail of violation.details) lines.push(`      ${detail}`);
  }
  if (exchange) {
    const { request } = exchange;
    lines.push(`  request:  ${request.method} ${request.url}`);
    for (const [name, value] of Object.entries(request.headers)) lines.push(`            ${name}: ${value}`);
    if (request.body !== undefined) lines.push(`            body: ${truncate(request.body)}`);
    if (exchange.status !== undefined) {
      lines.push(`  response: ${exchange.status} ${exchange.mediaType || '(no content type)'}`);
      if (exchange.text) lines.push(`            body: ${truncate(exchange.text)}`);
    }
  }
  return lines.join('\n');
}
