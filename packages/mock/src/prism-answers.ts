// Reading what Prism answers: its request-validation violations (the `sl-violations` header) as the
// document's problem errors, the rate-limit headers to keep, and whether a request asked Prism for
// a document example verbatim.
import type { IncomingMessage } from 'node:http';
import { escapePointer } from 'secmon-api/src/document';
import type { ProblemDetail } from '../../../common/problems.ts';

interface PrismViolation {
  location?: string[];
  code?: string | number;
  message?: string;
}

/** The type URI prefix of Prism's own problems, which the contract does not know. */
export const PRISM_ERRORS = 'https://stoplight.io/prism/errors#';

// `Prefer: example=...` asks for a document example verbatim, even a 400 one.
export const prefersExample = (req: IncomingMessage) => /(^|[\s,;])example=/.test(String(req.headers.prefer ?? ''));

export function parseViolations(header: string | null): PrismViolation[] {
  if (!header) return [];
  try {
    const parsed: unknown = JSON.parse(header);
    return Array.isArray(parsed) ? (parsed as PrismViolation[]) : [];
  } catch {
    return [];
  }
}

const LOCATION_PREFIX: Record<string, string> = { body: 'body', query: 'query', path: 'path', header: 'headers' };

/** Prism's `{ location: ['request', 'body', 'name'], message }` → the document's `{ pointer, message }`. */
export function toProblemError(violation: PrismViolation): ProblemDetail {
  const [, where = 'body', ...rest] = violation.location ?? [];
  const segments = [LOCATION_PREFIX[where] ?? where, ...rest].map(escapePointer);
  const message = violation.message ?? 'is invalid';
  const extra = violation.code === 'additionalProperties' ? /found '([^']+)'/.exec(message)?.[1] : undefined;
  return extra !== undefined
    ? { pointer: `/${[...segments, escapePointer(extra)].join('/')}`.slice(0, 512), message: 'is not a known field' }
    : {
        pointer: `/${segments.join('/')}`.slice(0, 512),
        // "Request body property name must …" / "Request query parameter limit must …" → "must …"
        message: message.replace(/^Request (body( property \S+)?|\w+ parameter \S+) /, '').slice(0, 1024),
      };
}

export function rateLimitHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['ratelimit', 'ratelimit-policy']) {
    const value = headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}
