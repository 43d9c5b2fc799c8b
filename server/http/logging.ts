// Structured request logs: one pino line per finished request with its id, method, path (no
// query string), status and duration. Headers and bodies are never logged; redaction is a second
// guard. A small middleware rather than pino-http: no child logger per request, which halves the
// logging cost per request (see bench/http.ts).
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { type DestinationStream, type Logger, pino } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'secret',
  '*.secret',
  'body.secret',
  'apiKeys',
  '*.apiKeys',
  'token',
  '*.token',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'secmon' } };
  return destination ? pino(options, destination) : pino(options);
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;
const ids = new WeakMap<Request, string>();

/** The request's id (the sent X-Request-Id when sane, else a UUID), for other log lines. */
export const requestIdOf = (req: Request) => ids.get(req);

export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const sent = req.headers['x-request-id'];
    const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    ids.set(req, id);
    res.setHeader('X-Request-Id', id);
    const path = req.originalUrl.split('?')[0]!;
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      const status = res.writableFinished ? res.statusCode : 499;
      logger[status >= 500 ? 'error' : 'info'](
        { req: { id, method: req.method, path }, res: { status }, responseTime: Math.round(performance.now() - started) },
        `${req.method} ${path} ${status}`,
      );
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
