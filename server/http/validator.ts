// express-openapi-validator over the bundled document: requests always, responses when the
// configuration asks for it (development and test). A response that breaks the contract becomes
// a logged 500 internal-error, so tests see it instead of a silently wrong body.
import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import { loadDocument } from '../../lib/document.ts';

export function contractValidator(validateResponses: boolean): RequestHandler[] {
  return OpenApiValidator.middleware({
    // The validator mutates the spec it is given; loadDocument hands out a private copy.
    apiSpec: loadDocument() as never,
    // The document is linted and tested in test/document; checking it again costs start-up time.
    validateApiSpec: false,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, removeAdditional: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    // 'full', as lib/schema-validator.ts checks: the validator's default 'fast' formats take
    // 2026-02-30T25:00:00Z as a date-time, and such a timestamp would be stored.
    ajvFormats: { mode: 'full' },
    validateSecurity: false,
    ignoreUndocumented: false,
  }) as RequestHandler[];
}
