// Rules on parameters, declared on the operation or on its path item. What an API client sends
// must not narrow; what a webhook delivery carries (its headers) must not disappear.
import type { OpenAPIV3_1 } from 'openapi-types';
import { resolveRef } from '../../../packages/api/src/document.ts';
import { SIGNATURE_HEADER } from '../../../packages/api/src/signing.ts';
import { keptOperations, parametersOf } from '../model.ts';
import { changeOf, type DocumentRule } from './operations.ts';

/** A request parameter is gone: unknown parameters are refused with 400, so old clients break. */
export const parameterRemoved: DocumentRule = (comparison) =>
  keptOperations(comparison)
    .filter((op) => op.sent === 'to-service')
    .flatMap((op) =>
      parametersOf(op)
        .filter((pair) => pair.base && !pair.revision)
        .map((pair) =>
          changeOf('parameter-removed', op, {
            pointer: pair.base!.pointer,
            message: `${op.label}: the ${pair.name} parameter was removed`,
          }),
        ),
    );

/** A parameter clients must now send: a new required one, or an optional one made required. */
export const requiredParameterAdded: DocumentRule = (comparison) =>
  keptOperations(comparison)
    .filter((op) => op.sent === 'to-service')
    .flatMap((op) =>
      parametersOf(op)
        .filter((pair) => pair.revision?.parameter.required && !pair.base?.parameter.required)
        .map((pair) =>
          changeOf('required-parameter-added', op, {
            pointer: pair.revision!.pointer,
            message: `${op.label}: the ${pair.name} parameter is now required`,
            before: pair.base ? 'optional' : 'absent',
            after: 'required',
          }),
        ),
    );

/** A delivery header receivers rely on is gone, or is no longer always sent. */
export const webhookHeaderRemoved: DocumentRule = (comparison) =>
  keptOperations(comparison)
    .filter((op) => op.sent === 'from-service')
    .flatMap((op) =>
      parametersOf(op)
        .filter(
          ({ base, revision }) =>
            base?.parameter.in === 'header' && (!revision || (base.parameter.required && !revision.parameter.required)),
        )
        .map(({ base, revision }) =>
          changeOf('webhook-header-removed', op, {
            pointer: (revision ?? base)!.pointer,
            message: `${op.label}: the delivery header ${base!.parameter.name} ${revision ? 'is no longer always sent' : 'was removed'}`,
          }),
        ),
    );

/** The signature header changed its format or its documented scheme: every verifier breaks. */
export const signatureSchemeChanged: DocumentRule = (comparison) =>
  keptOperations(comparison)
    .filter((op) => op.kind === 'webhook')
    .flatMap((op) =>
      parametersOf(op)
        .filter((pair) => pair.key === `header ${SIGNATURE_HEADER.toLowerCase()}` && pair.base && pair.revision)
        .flatMap((pair) => {
          const [b, r] = [pair.base!.parameter, pair.revision!.parameter];
          const [bs, rs] = [
            resolveRef(comparison.base, b.schema ?? {}),
            resolveRef(comparison.revision, r.schema ?? {}),
          ] as OpenAPIV3_1.SchemaObject[];
          const changed: [string, unknown, unknown][] = [
            ['description', b.description, r.description],
            ['pattern', bs!.pattern, rs!.pattern],
            ['length', [bs!.minLength, bs!.maxLength], [rs!.minLength, rs!.maxLength]],
          ];
          return changed
            .filter(([, before, after]) => JSON.stringify(before) !== JSON.stringify(after))
            .map(([what, before, after]) =>
              changeOf('signature-scheme-changed', op, {
                pointer: pair.revision!.pointer,
                message: `the ${SIGNATURE_HEADER} header's ${what} changed`,
                before,
                after,
              }),
            );
        }),
    );
