// The additive changes a release note lists: new operations, events, parameters, statuses,
// headers, media types, fields and enum values. None of them fails the gate.
import { escapePointer } from '../../packages/api/src/document.ts';
import type { AdditiveRuleId } from './catalogue.ts';
import {
  type Audience,
  type Change,
  type Comparison,
  headerNamed,
  keptOperations,
  parametersOf,
  requestBodyOf,
  responsesOf,
} from './model.ts';
import type { SchemaPair } from './schema-pairs.ts';

const addition = (rule: AdditiveRuleId, audience: Audience, pointer: string, message: string): Change => ({
  rule,
  pointer,
  message,
  audience: [audience],
});

export const operationsAdded = ({ added }: Comparison): Change[] =>
  added.map((op) =>
    addition(op.kind === 'api' ? 'operation-added' : 'event-type-added', op.audience, op.base.pointer, `${op.label} was added`),
  );

export const parametersAdded = (comparison: Comparison): Change[] =>
  keptOperations(comparison).flatMap((op) =>
    parametersOf(op)
      .filter((pair) => !pair.base && !(op.sent === 'to-service' && pair.revision!.parameter.required))
      .map((pair) => addition('parameter-added', op.audience, pair.revision!.pointer, `${op.label}: the ${pair.name} parameter was added`)),
  );

export const statusesAdded = (comparison: Comparison): Change[] =>
  keptOperations(comparison).flatMap((op) => {
    const before = op.base.operation.responses ?? {};
    return Object.keys(op.revision.operation.responses ?? {})
      .filter((status) => !(status in before))
      .map((status) =>
        addition(
          'status-code-added',
          op.audience,
          `${op.revision.pointer}/responses/${status}`,
          `${op.label}: response ${status} was added`,
        ),
      );
  });

export const responseHeadersAdded = (comparison: Comparison): Change[] =>
  keptOperations(comparison)
    .filter((op) => op.kind === 'api')
    .flatMap((op) =>
      responsesOf(comparison, op).flatMap((response) =>
        Object.keys(response.revision?.headers ?? {})
          .filter((name) => !headerNamed(response.base.headers, name))
          .map((name) =>
            addition(
              'response-header-added',
              op.audience,
              `${response.revisionPointer}/headers/${escapePointer(name)}`,
              `${op.label}: response ${response.status} has the new header ${name}`,
            ),
          ),
      ),
    );

export const mediaTypesAdded = (comparison: Comparison): Change[] =>
  keptOperations(comparison).flatMap((op) => {
    const request = [
      requestBodyOf(comparison.base, op.base)?.content,
      requestBodyOf(comparison.revision, op.revision)?.content,
      `${op.revision.pointer}/requestBody`,
      'request body',
    ] as const;
    const responses = responsesOf(comparison, op).map(
      (r) => [r.base.content, r.revision?.content, r.revisionPointer, `response ${r.status}`] as const,
    );
    return [request, ...responses].flatMap(([before, after, pointer, what]) =>
      Object.keys(after ?? {})
        .filter((media) => !(media in (before ?? {})))
        .map((media) =>
          addition(
            'media-type-added',
            op.audience,
            `${pointer}/content/${escapePointer(media)}`,
            `${op.label}: the ${what} may now be ${media}`,
          ),
        ),
    );
  });

export const fieldsAdded = (pair: SchemaPair): Change[] =>
  Object.keys(pair.revisionProperties)
    .filter((name) => !(name in pair.baseProperties))
    .map((name) =>
      addition('field-added', pair.audience, `${pair.pointer}/properties/${escapePointer(name)}`, `the field ${name} was added`),
    );

export const enumValuesAdded = (pair: SchemaPair): Change[] =>
  (pair.base.enum && pair.revision.enum ? pair.revision.enum : [])
    .filter((value) => !pair.base.enum!.some((old) => JSON.stringify(old) === JSON.stringify(value)))
    .map((value) => addition('enum-value-added', pair.audience, `${pair.pointer}/enum`, `the value ${JSON.stringify(value)} was added`));
