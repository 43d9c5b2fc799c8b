// `Prefer: code=<status>[, example=<name>]` in the stateful mock, as the static mock
// honours it, so a page that builds its error states against one works against the other. Runs
// after authentication and request validation (an invalid request gets its own problem, as in the
// static mock), and only answers documented error statuses: successes come from the mock's state.
import type { RequestHandler } from 'express';
import { documentedAnswer, parsePrefer, problemForRequest } from '../../common/prefer.ts';
import { quotaUsedUp } from '../../common/rate-limit.ts';
import { loadDocument } from '../../packages/api/src/document.ts';
import { invalid } from '../http/problems.ts';

export function preferredAnswers(): RequestHandler {
  const doc = loadDocument();
  return (req, res, next) => {
    const preference = parsePrefer(req.get('prefer'));
    if (preference.code === undefined && preference.example === undefined) return next();
    const path = req.originalUrl.split('?')[0]!;
    const answer = documentedAnswer(doc, req.method, path, preference, (status) => status >= 400);
    if (typeof answer === 'string') return next(invalid('/headers/Prefer', answer.slice(0, 1024)));
    // The RateLimit headers the request really spent stay; the example's fill in the rest (Retry-After, WWW-Authenticate).
    for (const [name, value] of Object.entries(answer.headers)) if (!res.hasHeader(name)) res.setHeader(name, value);
    if (answer.status === 429) res.setHeader('RateLimit', quotaUsedUp(String(res.getHeader('ratelimit')), answer.headers['retry-after']));
    res.status(answer.status);
    if (answer.body === undefined) return void res.end();
    res.type(answer.mediaType!).send(JSON.stringify(problemForRequest(answer.body, path)));
  };
}
