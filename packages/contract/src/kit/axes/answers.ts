// The axes of answers: every cross-cutting rule on every class of answer the document lists
// (statuses from the operations' responses), failed authentication counted whatever the request
// carries instead of a valid key, each receiver answer at the first attempt and at a retry, and
// the response headers whose values mean something over time.
import type { Exchange } from '../http.ts';
import type { Delivery } from '../receiver.ts';
import type { ContractModel } from '../spec.ts';
import type { Cell } from './space.ts';

export const CROSS_CUTTING = 'cross-cutting rules';
export const RECEIVER = 'receiver answers';
export const OVER_TIME = 'headers over time';

/** Statuses a healthy implementation gives only on a fault of its own, which no request provokes. */
const FAULT_STATUSES: Record<number, string> = {
  500: 'a fault in the service',
  503: 'the service cannot reach or fill its database',
};

export const CORS_AXIS = 'CORS (allow-origin, exposed headers)';
export const RATELIMIT_AXIS = 'RateLimit headers on authenticated answers';
export const PROBLEM_AXIS = 'problem document';

/** The credentials a request may carry instead of a valid key. */
export const NO_VALID_KEY = ['no Authorization', 'an unknown bearer key', 'another scheme (Basic)', 'an empty bearer token'] as const;

const cell = (family: string, axis: string, value: string, unreachable?: string): Cell => ({
  family,
  axis,
  cell: value,
  ...(unreachable ? { unreachable } : {}),
});

/** Every status some operation of the document answers, lowest first. */
export function statedStatuses(model: ContractModel): number[] {
  const all = new Set(model.operations.flatMap((op) => [...op.responses.keys()].filter((s) => /^\d{3}$/.test(s)).map(Number)));
  return [...all].sort((a, b) => a - b);
}

export function crossCuttingCells(model: ContractModel): Cell[] {
  const cells: Cell[] = [];
  const statuses = statedStatuses(model);
  for (const status of statuses) cells.push(cell(CROSS_CUTTING, CORS_AXIS, `${status}`, FAULT_STATUSES[status]));
  for (const status of statuses.filter((s) => s !== 401))
    cells.push(cell(CROSS_CUTTING, RATELIMIT_AXIS, `${status}`, FAULT_STATUSES[status]));
  for (const status of statuses.filter((s) => s >= 400)) cells.push(cell(CROSS_CUTTING, PROBLEM_AXIS, `${status}`, FAULT_STATUSES[status]));
  for (const kind of NO_VALID_KEY) cells.push(cell(CROSS_CUTTING, 'failed authentication counted per address', kind));
  for (const kind of NO_VALID_KEY) cells.push(cell(CROSS_CUTTING, 'over the failed-authentication limit: 429', kind));
  cells.push(...credentialSpellingCells(model));
  return cells;
}

/**
 * Spellings of the Authorization header around a valid key. Accepted: HTTP's scheme names are
 * case-insensitive (RFC 9110 section 11.1) and the Bearer syntax puts one or more spaces before the
 * token (RFC 6750 section 2.1). Refused: nothing in them is the document's `Bearer <api key>`, so
 * no key is sent (another scheme's name, the key alone) or the token is not the key (a second word).
 */
export const CREDENTIAL_SPELLINGS = [
  { name: 'the scheme in lower case', accepted: true, spell: (key: string) => `bearer ${key}` },
  { name: 'the scheme in upper case', accepted: true, spell: (key: string) => `BEARER ${key}` },
  { name: 'three spaces before the key', accepted: true, spell: (key: string) => `Bearer   ${key}` },
  { name: 'a longer scheme name ending in Bearer', accepted: false, spell: (key: string) => `XBearer ${key}` },
  { name: 'a second word after the key', accepted: false, spell: (key: string) => `Bearer ${key} ${key}` },
  { name: 'the key without a scheme', accepted: false, spell: (key: string) => key },
] as const;
export const SPELLINGS_AXIS = 'Authorization spellings around a valid key';

const spellingCell = ({ name, accepted }: (typeof CREDENTIAL_SPELLINGS)[number]) =>
  cell(CROSS_CUTTING, SPELLINGS_AXIS, `${name}: ${accepted ? 'served' : 'refused'}`);

export function credentialSpellingCells(model: ContractModel): Cell[] {
  return model.operations.some((op) => op.responses.has('401')) ? CREDENTIAL_SPELLINGS.map(spellingCell) : [];
}

/** The spelling cell a request exercised (its Authorization as shown, the key named by its role). */
export function credentialSpellingOf(exchange: Exchange): Cell | undefined {
  const authorization = header(exchange, 'authorization');
  const spelling = CREDENTIAL_SPELLINGS.find(({ spell }) => ['<api-key>', '<read-key>'].some((role) => spell(role) === authorization));
  return spelling && spellingCell(spelling);
}

/** How the kit's credentials and Origin show in a sent request. */
const header = (exchange: Exchange, name: string) =>
  Object.entries(exchange.request.headers).find(([key]) => key.toLowerCase() === name)?.[1];

export function credentialKind(exchange: Exchange): (typeof NO_VALID_KEY)[number] | 'a valid key' {
  const authorization = header(exchange, 'authorization');
  if (authorization === undefined) return 'no Authorization';
  if (!/^Bearer /i.test(authorization)) return 'another scheme (Basic)';
  if (/^Bearer\s*$/i.test(authorization)) return 'an empty bearer token';
  return /^Bearer <(api|read)-key>$/.test(authorization) ? 'a valid key' : 'an unknown bearer key';
}

/** The cross-cutting cells an answer exercised: CORS when the request carried an Origin, and what the response audit judged. */
export function crossCuttingOf(exchange: Exchange, audited: boolean): Cell[] {
  const found: Cell[] = [];
  const status = String(exchange.status);
  if (exchange.request.method !== 'OPTIONS' && header(exchange, 'origin') !== undefined) found.push(cell(CROSS_CUTTING, CORS_AXIS, status));
  if (!audited) return found;
  const kind = credentialKind(exchange);
  if (kind === 'a valid key' && exchange.status !== 401 && exchange.request.method !== 'OPTIONS')
    found.push(cell(CROSS_CUTTING, RATELIMIT_AXIS, status));
  if (exchange.status >= 400) found.push(cell(CROSS_CUTTING, PROBLEM_AXIS, status));
  return found;
}

/** How long the service waits for a receiver's answer (the document's "2xx within 10 seconds"). */
export const TIME_LIMIT_MS = 10_000;
/** The waits of the retry schedule the document gives, in seconds (attempt 2 waits the first). */
export const SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400];
const ANSWERS = [
  '2xx',
  '3xx (a failure, not followed)',
  '410 Gone',
  'other 4xx',
  '429',
  '5xx',
  'no answer within 10 s (time-out)',
  'the connection reset without an answer',
  'Retry-After shorter than the schedule',
  'Retry-After longer than the schedule',
] as const;
const ATTEMPTS = ['first attempt', 'a retry'] as const;

export function receiverCells(model: ContractModel): Cell[] {
  if (model.webhooks.length === 0) return [];
  return ATTEMPTS.flatMap((attempt) => ANSWERS.map((answer) => cell(RECEIVER, attempt, answer)));
}

/** The receiver cell of each delivery: its answer, at its attempt (a delivery id seen before is a retry). */
export function receiverCellsOf(deliveries: readonly Delivery[]): { delivery: Delivery; cell: Cell }[] {
  const seen = new Map<string, number>();
  return deliveries.flatMap((delivery) => {
    const id = String(delivery.headers['x-service-delivery'] ?? '');
    const attempt = (seen.get(id) ?? 0) + 1;
    seen.set(id, attempt);
    const answered = delivery.answered;
    if (!id || !answered) return [];
    const { status } = answered;
    const retryAfter = Number(answered.headers?.['retry-after'] ?? answered.headers?.['Retry-After'] ?? Number.NaN);
    const scheduled = SCHEDULE_SECONDS[attempt - 1] ?? Infinity;
    const answer: (typeof ANSWERS)[number] = answered.reset
      ? 'the connection reset without an answer'
      : (answered.delayMs ?? 0) >= TIME_LIMIT_MS
        ? 'no answer within 10 s (time-out)'
        : Number.isFinite(retryAfter)
          ? retryAfter < scheduled
            ? 'Retry-After shorter than the schedule'
            : 'Retry-After longer than the schedule'
          : status < 300
            ? '2xx'
            : status < 400
              ? '3xx (a failure, not followed)'
              : status === 410
                ? '410 Gone'
                : status === 429
                  ? '429'
                  : status < 500
                    ? 'other 4xx'
                    : '5xx';
    return [{ delivery, cell: cell(RECEIVER, ATTEMPTS[attempt === 1 ? 0 : 1], answer) }];
  });
}

/** The header values the kit holds against the clock, and what each is compared with. */
export const TIME_CELLS = [
  ['RateLimit r', 'falls by one per accepted request within a window'],
  ['RateLimit t', 'counts down with elapsed time, never later than the last t said'],
  ['RateLimit r and t', 'r back at the quota once the window t announced has ended'],
  ['Retry-After of a 429', 'a request before it has passed is refused again'],
  ['Retry-After of a 429', 'the next request after it has passed is accepted'],
] as const;

/** Cells that a wait of a whole window would exercise: longer than a default run may take. */
const WINDOW_WAIT = 'waits out a whole quota window (60 s on the reference server), longer than a default run';

export function timeCells(): Cell[] {
  return TIME_CELLS.map(([axis, value]) =>
    cell(OVER_TIME, axis, value, value.startsWith('r back') || value.startsWith('the next request') ? WINDOW_WAIT : undefined),
  );
}
