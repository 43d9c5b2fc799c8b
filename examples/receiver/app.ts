// An example webhook receiver for SecMon events: Express keeps the raw body (express.raw), and
// verifyWebhook checks the timestamped signature over those exact bytes (refusing replays older
// than 5 minutes), then parses and validates the body against the contract. Copy it as a starting
// point; `npm run receiver` runs it (main.ts), and `npx secmon-contract receiver` checks it. It
// imports the client package's source; in your project the same names come from `secmon-api/webhooks`.
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import {
  InvalidEventError,
  parseEvent,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from '../../packages/api/src/webhooks.ts';

export interface ReceiverOptions {
  /**
   * The webhook's secret, or several while one is being rotated (any of them verifies). Without one,
   * unsigned deliveries are accepted and logged as unauthenticated.
   */
  secret: string | readonly string[] | undefined;
  logger: Logger;
  /** Where SecMon POSTs (the path of the webhook URL). */
  path?: string;
  /** Called once per new delivery; retries of a delivery already handled are acknowledged and skipped. */
  onEvent?: (event: WebhookEvent, deliveryId: string) => void | Promise<void>;
}

/** How many delivery ids are remembered to recognise retries (delivery is at least once). */
const REMEMBERED_DELIVERIES = 10_000;

export function createReceiverApp({ secret, logger, path = '/webhooks', onEvent }: ReceiverOptions): Express {
  const app = express();
  const seen = new Set<string>();
  app.disable('x-powered-by');

  // express.raw, not express.json: re-serialised JSON would not match the signature.
  app.post(path, express.raw({ type: 'application/json', limit: '1mb' }), async (req, res) => {
    const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const deliveryId = req.get('x-service-delivery') ?? '';
    const log = logger.child({ delivery_id: deliveryId, event: req.get('x-service-event'), webhook_id: req.get('x-service-webhook-id') });

    if (!secret || secret.length === 0) log.warn('no secret configured: accepting an unauthenticated delivery');
    let event: WebhookEvent;
    try {
      event = secret && secret.length > 0 ? verifyWebhook(raw, req.headers, secret) : parseEvent(raw);
    } catch (error) {
      const invalid = error instanceof InvalidEventError || (error instanceof WebhookVerificationError && error.reason === 'invalid-event');
      if (!invalid && !(error instanceof WebhookVerificationError)) throw error;
      // Authentic but not an event: 400. Not authentic (no, wrong or stale signature): 401.
      log.warn(
        { reason: invalid ? 'invalid-event' : (error as WebhookVerificationError).reason, detail: error.message },
        'rejected delivery',
      );
      res
        .status(invalid ? 400 : 401)
        .type('text/plain')
        .send(invalid ? error.message : 'bad signature');
      return;
    }

    if (seen.has(deliveryId)) {
      log.info('duplicate delivery acknowledged');
      res.status(200).end();
      return;
    }
    await onEvent?.(event, deliveryId);
    remember(seen, deliveryId);
    log.info({ timestamp: event.timestamp, data: event.data }, `received ${event.event}`);
    res.status(200).end();
  });
  return app;
}

function remember(seen: Set<string>, id: string): void {
  if (id === '') return;
  seen.add(id);
  // Sets iterate in insertion order: drop the oldest.
  if (seen.size > REMEMBERED_DELIVERIES) seen.delete(seen.values().next().value!);
}
