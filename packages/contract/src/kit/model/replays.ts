// `Idempotency-Key` on a create: "a retry with the same key and the same body within 24 hours
// replays the first response instead of creating a duplicate, marked with
// `Idempotent-Replayed: true`". The first response, even when the resource changed since; the
// same key with another body is refused with 409.
import { type Answer, judgeCreate } from './answers.ts';
import type { Json } from './facts.ts';
import { canonical, type Difference, type ModelState } from './state.ts';

const RULE = 'idempotency-and-concurrency.1';

export function judgeKeyedCreate(state: ModelState, resource: string, key: string, body: Json, answer: Answer): Difference[] {
  const first = state.replays.get(key);
  if (!first) {
    const out = judgeCreate(state, resource, body, answer);
    state.replays.set(key, { resource, body: canonical(body), status: answer.status, json: answer.json });
    return out;
  }
  if (first.resource !== resource || first.body !== canonical(body)) {
    return answer.status === 409
      ? []
      : [{ rule: 'errors.14', message: `Idempotency-Key ${key} reused with another body: expected 409, got ${answer.status}` }];
  }
  const out: Difference[] = [];
  if (answer.status !== first.status)
    out.push({ rule: RULE, message: `the replay answered ${answer.status}; the first answer was ${first.status}` });
  else if (canonical(answer.json) !== canonical(first.json))
    out.push({
      rule: RULE,
      message: 'the replay is not the first response',
      details: [`first:  ${JSON.stringify(first.json)}`, `replay: ${JSON.stringify(answer.json)}`],
    });
  if (answer.header('idempotent-replayed') !== 'true')
    out.push({ rule: RULE, message: `the replay has Idempotent-Replayed: ${answer.header('idempotent-replayed') ?? '(none)'}` });
  return out;
}
