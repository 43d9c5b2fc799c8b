// An example webhook receiver for SecMon events: Express keeps the raw body (express.raw), the
// signature is checked over those exact bytes, then the body is parsed and validated against the
// contract. Copy it as a starting point; `npm run receiver` runs it (main.ts). It imports the client
// package's source; in your project the same names come from `secmon-api/webhooks`.
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { InvalidEventError, SIGNATURE_HEADER, parseEvent, verifySignature, type WebhookEvent } from '../../lib/webhooks.ts';

export interface ReceiverOptions {
  /** The webhook's secret. Without one, unsigned deliveries are accepted and logged as unauthenticated. */
  secret: string | undefined;
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

    if (secret) {
      if (!verifySignature(raw, req.get(SIGNATURE_HEADER), secret)) {
        log.warn('rejected: missing or wrong signature');
        res.status(401).type('text/plain').send('bad signature');
        return;
      }
    } else {
      log.warn('no secret configured: accepting an unauthenticated delivery');
    }

    let event: WebhookEvent;
    try {
      event = parseEvent(raw);
    } catch (error) {
      if (!(error instanceof InvalidEventError)) throw error;
      log.warn({ reason: error.message }, 'rejected: not a valid SecMon event');
      res.status(400).type('text/plain').send(error.message);
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
