// Request bodies: required on POST and PUT, JSON only (415 otherwise), at most 1 MiB (413), parsed strictly (400
// malformed-json). Errors go to the problem handler.
import express, { type RequestHandler } from 'express';
import { BODY_LIMIT_BYTES } from '../../common/problems.ts';
import { invalid, ProblemError } from './problems.ts';

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/** POST and PUT need a JSON body; other methods' bodies are ignored. */
export const requireJson: RequestHandler = (req, _res, next) => {
  if (req.method !== 'POST' && req.method !== 'PUT') return next();
  if (!hasBody(req.headers)) return next(invalid('/body', 'a JSON request body is required'));
  if (!req.is('application/json')) {
    const type = req.headers['content-type'] ?? 'no content type';
    return next(new ProblemError('unsupported-media-type', `Send the body as application/json, not ${type.slice(0, 100)}.`));
  }
  next();
};

export const parseJson: RequestHandler = express.json({ limit: BODY_LIMIT_BYTES, type: 'application/json' });
