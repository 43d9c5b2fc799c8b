// Which catalogue rules a failure breaks, found where the document states them: an operation's own
// description, or the description of the parameter, header or schema the failure is about. A check
// names the sentences at that place that say what it saw broken, so a generic check (every list,
// every read) names each operation's own rule without a table of ids to keep in step.
import { escapePointer, type OpenApiDocument } from '../../../../lib/document.ts';
import type { OperationModel } from '../spec.ts';
import { CATALOGUE, type RuleId } from './catalogue.ts';
import { type CatalogueEntry, statusOf } from './rule.ts';

/** The sentences stated at the description `at` (a pointer, `#` optional) that match `pattern`, in document order. */
export function sentencesAt(at: string, pattern: RegExp): CatalogueEntry[] {
  const where = at.replace(/^#/, '');
  return (CATALOGUE as readonly CatalogueEntry[]).filter((entry) => entry.at === where && pattern.test(entry.text));
}

/** The checkable rules whose sentence, stated at the description `at`, matches `pattern`. */
export const statedAt = (at: string, pattern: RegExp): RuleId[] =>
  sentencesAt(at, pattern)
    .filter((entry) => statusOf(entry) === 'checked')
    .map((entry) => entry.id as RuleId);

/** Where `op` is in the document: its description and responses are under this pointer. */
export const operationAt = (op: OperationModel) => `/paths/${escapePointer(op.path)}/${op.method.toLowerCase()}`;

/** The rules of an operation's own description that match `pattern`. */
export const statedFor = (op: OperationModel, pattern: RegExp): RuleId[] => statedAt(`${operationAt(op)}/description`, pattern);

/** The rules of the description beside a parameter's or header's `schema` pointer. */
export const statedBeside = (schemaPointer: string, pattern: RegExp): RuleId[] =>
  statedAt(schemaPointer.replace(/\/schema$/, '/description'), pattern);

/** The rules of the description of the named schema a pointer refers to (a response's `$ref`). */
export function statedOfSchema(doc: OpenApiDocument, pointer: string, pattern: RegExp): RuleId[] {
  let node: unknown = doc;
  for (const segment of pointer.replace(/^#\//, '').split('/'))
    node = (node as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  const ref = (node as { $ref?: unknown } | undefined)?.$ref;
  return typeof ref === 'string' ? statedAt(`${ref}/description`, pattern) : [];
}

/** The rules beside the header `name` (lowercase) of the operation's answer with `status`. */
export function statedOfHeader(op: OperationModel, status: string, name: string, pattern: RegExp): RuleId[] {
  const header = op.responses.get(status)?.headers.find((h) => h.name.toLowerCase() === name);
  return header ? statedBeside(header.pointer, pattern) : [];
}

/** The rules beside the operation's parameter `name` (lowercase). */
export function statedOfParam(op: OperationModel, name: string, pattern: RegExp): RuleId[] {
  const param = op.params.find((p) => p.name.toLowerCase() === name);
  return param ? statedBeside(param.pointer, pattern) : [];
}

/** The rules of the description of the operation's answer with `status`. */
export function statedOfResponse(op: OperationModel, status: string, pattern: RegExp): RuleId[] {
  const response = op.responses.get(status);
  return response ? statedAt(`${response.pointer}/description`, pattern) : [];
}
