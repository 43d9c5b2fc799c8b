// `npm run receiver`: the example receiver on RECEIVER_PORT (default 4000), verifying with
// SECMON_WEBHOOK_SECRET (and SECMON_WEBHOOK_PREVIOUS_SECRET while you rotate it). Point a webhook at
// http://127.0.0.1:4000/webhooks with the same secret.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createReceiverApp } from './app.ts';

const logger = pino({ name: 'secmon-receiver', level: process.env.RECEIVER_LOG_LEVEL ?? 'info' });
const port = Number(process.env.RECEIVER_PORT ?? 4000);
const host = process.env.RECEIVER_HOST ?? '127.0.0.1';
const path = process.env.RECEIVER_PATH ?? '/webhooks';
const secret = process.env.SECMON_WEBHOOK_SECRET || undefined;
const previous = process.env.SECMON_WEBHOOK_PREVIOUS_SECRET || undefined;

const server = createReceiverApp({ secret: secret && previous ? [secret, previous] : secret, logger, path }).listen(port, host);
await once(server, 'listening');
const address = server.address() as AddressInfo;
logger.info(
  { url: `http://${host}:${address.port}${path}`, verifying: secret !== undefined },
  secret ? 'receiver listening' : 'receiver listening WITHOUT a secret: set SECMON_WEBHOOK_SECRET to verify signatures',
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'receiver stopping');
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
