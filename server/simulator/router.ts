// The development event simulator: `POST /_simulator/events` makes the server emit any of the six
// events through the outbox, like `stripe trigger`. Not part of the /v1 contract; mounted only in
// development mode, and it needs an API key with the `write` scope.

import type { ErrorObject } from 'ajv';
import { Router } from 'express';
import { invalidPartsDetail } from '../../common/problems.ts';
import { loadDocument } from '../../packages/api/src/document.ts';
import { EVENT_TYPES, type EventType, isEventType, validateEvent, type WebhookEvent } from '../../packages/api/src/events.ts';
import { publish } from '../../packages/core/src/index.ts';
import type { ApiKey } from '../config.ts';
import { authenticate, requireScope } from '../http/auth.ts';
import type { AuthFailureThrottle } from '../http/auth-throttle.ts';
import { parseJson, requireJson } from '../http/body.ts';
import { ProblemError } from '../http/problems.ts';
import type { Store } from '../store/store.ts';
import { mergeOverrides, sampleEvent } from './samples.ts';

export const SIMULATOR_PATH = '/_simulator';

/** The document's pattern of a webhook id. */
const WEBHOOK_ID = new RegExp((loadDocument().components!.schemas!.WebhookId as { pattern: string }).pattern);

export interface SimulatorDeps {
  store: Store;
  apiKeys: readonly ApiKey[];
  /** Any bearer token is a key with every scope, as on /v1 (AppDeps.anyToken). */
  anyKey?: boolean;
  now: () => Date;
  /** The app's failed-authentication counter, shared with /v1. */
  authThrottle?: AuthFailureThrottle | undefined;
}

/**
 * Body: `{ "event": <type>, "webhook_id"?: <id>, "timestamp"?: <UTC>, "data"?: { <fields to override> } }`.
 * The rest of the body is realistic sample data. Without `webhook_id` every enabled subscriber gets
 * the event; with it only that webhook, which must exist, be enabled and subscribe to the type
 * (a test event for one receiver must never reach another). Answers 202 with the emitted event
 * and how many deliveries were queued for it.
 */
export function simulatorRouter({ store, apiKeys, anyKey = false, now, authThrottle }: SimulatorDeps): Router {
  const router = Router();
  router.use(authenticate(apiKeys, anyKey, authThrottle), requireScope, requireJson, parseJson);
  router.post('/events', async (req, res) => {
    const request = req.body as unknown;
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      throw invalid([{ pointer: '/body', message: 'must be an object with an event type' }]);
    }
    const { event: type, webhook_id: target, ...overrides } = request as Record<string, unknown>;
    if (!isEventType(type)) throw invalid([{ pointer: '/body/event', message: `must be one of ${EVENT_TYPES.join(', ')}` }]);
    if (target !== undefined) {
      const refusal = await targetRefusal(store, target, type);
      if (refusal) throw invalid([{ pointer: '/body/webhook_id', message: refusal }]);
    }
    const body = mergeOverrides(sampleEvent(type, now()), overrides);
    const result = validateEvent(body);
    if (!result.valid) throw invalid(result.errors.map(toProblemError));
    const deliveries = await publish(store, body as WebhookEvent, now(), target as string | undefined);
    res.status(202).json({ event: body, deliveries });
  });
  return router;
}

/** Why a test event cannot go to `target`, in words for the person who clicked; undefined when it can. */
async function targetRefusal(store: Store, target: unknown, type: EventType): Promise<string | undefined> {
  if (typeof target !== 'string' || !WEBHOOK_ID.test(target)) return 'must be a webhook id (whk_ followed by 26 characters)';
  const webhook = await store.webhooks.get(target);
  if (!webhook) return `no webhook has the id ${target}`;
  if (!webhook.events.includes(type)) return `webhook ${target} does not subscribe to ${type} (it receives ${webhook.events.join(', ')})`;
  if (!webhook.enabled) return `webhook ${target} is disabled: enable it to send it events`;
  return undefined;
}

function invalid(errors: { pointer: string; message: string }[]): ProblemError {
  return new ProblemError('validation-error', invalidPartsDetail(errors.length), errors);
}

// The request body mirrors the event body, so an error's place in the event is its place in the request.
function toProblemError(error: ErrorObject): { pointer: string; message: string } {
  const extra = error.keyword === 'additionalProperties' ? `/${String(error.params.additionalProperty)}` : '';
  return { pointer: `/body${error.instancePath}${extra}`, message: error.message ?? 'is invalid' };
}
