// The development event simulator: `POST /_simulator/events` makes the server emit any of the six
// events through the outbox, like `stripe trigger`. Not part of the /v1 contract; mounted only in
// development mode, and it needs an API key with the `write` scope.
import { Router } from 'express';
import type { ErrorObject } from 'ajv';
import type { ApiKey } from '../config.ts';
import { EVENT_TYPES, isEventType, validateEvent, type WebhookEvent } from '../../lib/events.ts';
import { authenticate, requireScope } from '../http/auth.ts';
import { parseJson, requireJson } from '../http/body.ts';
import { invalidPartsDetail } from '../../lib/problems.ts';
import { ProblemError } from '../http/problems.ts';
import type { Store } from '../store/store.ts';
import { mergeOverrides, sampleEvent } from './samples.ts';

export const SIMULATOR_PATH = '/_simulator';

export interface SimulatorDeps {
  store: Store;
  apiKeys: readonly ApiKey[];
  /** The stateful mock: any bearer token is a key with every scope, as on /v1. */
  anyKey?: boolean;
  now: () => Date;
}

/**
 * Body: `{ "event": <type>, "timestamp"?: <UTC>, "data"?: { <fields to override> }, "webhook_id"?: <id> }`.
 * The rest of the body is realistic sample data. With `webhook_id` the event goes to that webhook
 * only, which must be enabled and subscribed to the type; without it, to every subscriber.
 * Answers 202 with the emitted event and how many deliveries were queued for it.
 */
export function simulatorRouter({ store, apiKeys, anyKey = false, now }: SimulatorDeps): Router {
  const router = Router();
  router.use(authenticate(apiKeys, anyKey), requireScope, requireJson, parseJson);
  router.post('/events', async (req, res) => {
    const request = req.body as unknown;
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      throw invalid([{ pointer: '/body', message: 'must be an object with an event type' }]);
    }
    const { event: type, webhook_id: target, ...overrides } = request as Record<string, unknown>;
    if (!isEventType(type)) throw invalid([{ pointer: '/body/event', message: `must be one of ${EVENT_TYPES.join(', ')}` }]);
    if (target !== undefined && typeof target !== 'string') throw invalid([{ pointer: '/body/webhook_id', message: 'must be a webhook id' }]);
    const body = mergeOverrides(sampleEvent(type, now()), overrides);
    const result = validateEvent(body);
    if (!result.valid) throw invalid(result.errors.map(toProblemError));
    const deliveries = await store.outbox.enqueue(body as WebhookEvent, now(), target);
    if (target !== undefined && deliveries === 0) {
      throw invalid([{ pointer: '/body/webhook_id', message: `must be an enabled webhook subscribed to ${type}` }]);
    }
    res.status(202).json({ event: body, deliveries });
  });
  return router;
}

function invalid(errors: { pointer: string; message: string }[]): ProblemError {
  return new ProblemError('validation-error', invalidPartsDetail(errors.length), errors);
}

// The request body mirrors the event body, so an error's place in the event is its place in the request.
function toProblemError(error: ErrorObject): { pointer: string; message: string } {
  const extra = error.keyword === 'additionalProperties' ? `/${String(error.params.additionalProperty)}` : '';
  return { pointer: `/body${error.instancePath}${extra}`, message: error.message ?? 'is invalid' };
}
