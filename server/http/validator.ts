// express-openapi-validator over the bundled document: requests always, responses when the
// configuration asks for it (development and test). A response that breaks the contract becomes
// a logged 500 internal-error, so tests see it instead of a silently wrong body.
//
// A 400 names every invalid part at once (Ajv's allErrors). The validator refuses unknown query
// parameters on its own, one at a time and before anything else, so that check is ours: its
// findings are added to the validator's errors, or reported alone when the rest is valid.

import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { invalidPartsDetail, type ProblemDetail, unknownQueryParameters } from '../../common/problems.ts';
import { findRoute, loadDocument, operationRoutes } from '../../packages/api/src/document.ts';
import { ProblemError } from './problems.ts';

// The document's routes, read once per process like the validator below: every app reads the same document.
let documentRoutes: ReturnType<typeof operationRoutes> | undefined;

export function contractValidator(validateResponses: boolean): (RequestHandler | ErrorRequestHandler)[] {
  const routes = (documentRoutes ??= operationRoutes(loadDocument()));
  const unknownQuery = new WeakMap<Request, ProblemDetail[]>();

  const collectUnknownQuery: RequestHandler = (req, _res, next) => {
    const known = findRoute(routes, req.originalUrl.split('?')[0]!)?.methods.get(req.method);
    const errors = known ? unknownQueryParameters(known, Object.keys(req.query as object)) : [];
    if (errors.length > 0) unknownQuery.set(req, errors);
    next();
  };
  const reportUnknownQuery: RequestHandler = (req, _res, next) => {
    const errors = unknownQuery.get(req);
    next(errors ? new ProblemError('validation-error', invalidPartsDetail(errors.length), errors) : undefined);
  };
  const addUnknownQuery: ErrorRequestHandler = (error: { status?: number; errors?: unknown[] }, req, _res, next) => {
    const errors = unknownQuery.get(req);
    if (errors && error?.status === 400 && Array.isArray(error.errors))
      error.errors.unshift(...errors.map(({ pointer, message }) => ({ path: pointer, message })));
    next(error);
  };

  return [collectUnknownQuery, ...documentValidator(validateResponses), reportUnknownQuery, addUnknownQuery];
}

// The validator compiles the document's schemas on an instance's first requests, about half a second
// of CPU, and keeps nothing of an app or a request between requests: a process that starts several
// apps (a test run starts hundreds) shares one instance per setting. The `app.param` hook it installs
// on the first app it serves would not carry over, and needs not: the routes live on routers, where an
// app's parameter hooks never run.
const validators = new Map<boolean, RequestHandler[]>();

function documentValidator(validateResponses: boolean): RequestHandler[] {
  const known = validators.get(validateResponses);
  if (known) return known;
  const validator = OpenApiValidator.middleware({
    // The validator mutates the spec it is given; loadDocument hands out a private copy.
    apiSpec: loadDocument() as never,
    // The document is linted and tested in test/document; checking it again costs start-up time.
    validateApiSpec: false,
    validateRequests: { allErrors: true, allowUnknownQueryParameters: true, coerceTypes: false, removeAdditional: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    // 'full', as packages/api/src/schema-validator.ts checks: the validator's default 'fast' formats take
    // 2026-02-30T25:00:00Z as a date-time, and such a timestamp would be stored.
    ajvFormats: { mode: 'full' },
    validateSecurity: false,
    ignoreUndocumented: false,
  }) as RequestHandler[];
  validators.set(validateResponses, validator);
  return validator;
}
