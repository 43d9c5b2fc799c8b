// RFC 9457 problem documents in the server: the error type handlers throw, and the last error
// handler that turns anything thrown, including body-parser and validator errors, into a problem.
// The catalogue of kinds lives in common/problems.ts (the mock's contract shim uses it too).
import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Logger } from 'pino';
import {
  invalidPartsDetail,
  PAYLOAD_TOO_LARGE_DETAIL,
  type ProblemDetail,
  type ProblemKind,
  problem,
  UNDECODABLE_PATH,
} from '../../common/problems.ts';
import { classifyDatabaseError, type DatabaseFault, faultLogFields } from '../store/faults.ts';
import type { DatabaseHealth } from './database-health.ts';
import { requestIdOf } from './logging.ts';

export class ProblemError extends Error {
  readonly kind: ProblemKind;
  readonly errors: ProblemDetail[] | undefined;
  constructor(kind: ProblemKind, detail: string, errors?: ProblemDetail[]) {
    super(detail);
    this.kind = kind;
    this.errors = errors;
  }
}

export const invalid = (pointer: string, message: string) =>
  new ProblemError('validation-error', invalidPartsDetail(1), [{ pointer, message }]);

/** Sends a problem. res.send (not res.json) so it never goes through response validation twice. */
export function sendProblem(req: Request, res: Response, kind: ProblemKind, detail: string, errors?: ProblemDetail[]): void {
  const body = problem(kind, detail, req.originalUrl.split('?')[0]!, errors);
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
}

interface HttpishError {
  status?: number;
  type?: string;
  headers?: Record<string, string>;
  errors?: { path?: string; message?: string; errorCode?: string }[];
  message?: string;
}

// express-openapi-validator reports `errors[].path` as '/body/x', '/query/limit', '/path/id',
// '/headers/if-match', which is the pointer format the document promises. A path it cannot
// percent-decode is reported with the raw URL path as `path` ("malformed uri"): that is the request's
// path as a whole, `/path`, never the URL itself.
const REQUEST_PART = /^\/(body|query|path|headers)(\/|$)/;
const MALFORMED_URI = /^malformed uri/i;

function validatorErrors(errors: NonNullable<HttpishError['errors']>): ProblemDetail[] {
  return errors.slice(0, 100).map((error) => {
    const mapped = (error.path ?? '').replace(/^\.?(body|query|path|headers|params)[./]/, '/$1/').replace(/^\/params\//, '/path/');
    const malformed = MALFORMED_URI.test(error.message ?? '');
    return {
      pointer: (REQUEST_PART.test(mapped) ? mapped : malformed ? UNDECODABLE_PATH.pointer : '').slice(0, 512),
      message: (malformed
        ? UNDECODABLE_PATH.message
        : error.errorCode?.startsWith('additionalProperties') || error.errorCode?.startsWith('unevaluatedProperties')
          ? 'is not a known field'
          : (error.message ?? 'is invalid')
      ).slice(0, 1024),
    };
  });
}

// V8's parse messages quote the body around the error, which may hold a secret: keep only the position.
function malformedDetail(message: string | undefined): string {
  const position = /position (\d+)/.exec(message ?? '')?.[1];
  return `The request body is not valid JSON${position === undefined ? '' : ` (error at byte ${position})`}.`;
}

/**
 * Seconds a client waits before retrying: a restart or a stall of the database is over in
 * seconds; a full disk needs an operator, so retries are spaced out.
 */
export const RETRY_AFTER_SECONDS: Record<DatabaseFault['kind'], number> = { unavailable: 2, full: 60 };

const FAULT_DETAIL: Record<DatabaseFault['kind'], string> = {
  unavailable:
    'The service cannot reach its database right now. Retry after the seconds in Retry-After (a create with the same Idempotency-Key).',
  full: 'The service has no room to store the change. Retry after the seconds in Retry-After.',
};

/** `health` learns of faults that make the instance not ready (a full disk). */
export function problemHandler(logger: Logger, health?: DatabaseHealth): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof ProblemError) return sendProblem(req, res, error.kind, error.message, error.errors);
    const fault = classifyDatabaseError(error);
    if (fault) {
      health?.noteFault(fault);
      logger.error(
        { err: error, reqId: requestIdOf(req), operation: `${req.method} ${req.path}`, ...faultLogFields(error) },
        `database ${fault.kind === 'full' ? 'full' : 'unavailable'}: ${fault.cause}`,
      );
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS[fault.kind]));
      return sendProblem(req, res, fault.kind === 'full' ? 'storage-full' : 'service-unavailable', FAULT_DETAIL[fault.kind]);
    }
    const http = (error ?? {}) as HttpishError;
    switch (http.type) {
      case 'entity.parse.failed':
        return sendProblem(req, res, 'malformed-json', malformedDetail(http.message));
      case 'entity.too.large':
        return sendProblem(req, res, 'payload-too-large', PAYLOAD_TOO_LARGE_DETAIL);
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return sendProblem(req, res, 'unsupported-media-type', 'Send the body as application/json in UTF-8.');
    }
    for (const [name, value] of Object.entries(http.headers ?? {})) res.setHeader(name, value);
    switch (http.status) {
      case 400: {
        // A 400 without items comes from reading the body (a Content-Encoding it does not decode, a
        // body cut short), never from the validator, which always lists them.
        const errors = validatorErrors(http.errors ?? [{ path: '/body', message: `could not be read (${http.message ?? 'invalid'})` }]);
        return sendProblem(req, res, 'validation-error', invalidPartsDetail(errors.length), errors);
      }
      case 404:
        return sendProblem(req, res, 'not-found', `No route matches ${req.path}.`);
      case 405:
        return sendProblem(req, res, 'method-not-allowed', `${req.method} is not allowed on ${req.path}.`);
      case 413:
        return sendProblem(req, res, 'payload-too-large', PAYLOAD_TOO_LARGE_DETAIL);
      case 415:
        return sendProblem(req, res, 'unsupported-media-type', 'Send the body as application/json.');
    }
    logger.error({ err: error, reqId: requestIdOf(req), ...faultLogFields(error) }, 'request failed');
    return sendProblem(req, res, 'internal-error', 'An unexpected error occurred; it has been logged.');
  };
}
