#!/usr/bin/env node
// `secmon-events --url <receiver> [--secret <s>] [--event <type>|all] [--example <name>]
// [--webhook-id <whk_...>]` (in this repository, `npm run mock:events -- …`): sends the document's
// example events and prints what the receiver said.
import { parseArgs } from 'node:util';
import { EVENT_TYPES, isEventType } from 'secmon-api/src/events';
import { HELP_OPTION, usageError } from '../../../common/cli.ts';
import { buildDeliveries, type DeliveryResult, deliverAll, delivered, EventSelectionError } from './events.ts';

const COMMAND = 'secmon-events';
const USAGE = `usage: ${COMMAND} --url <receiver url> [--secret <secret>] [--event <type>|all] [--example <name>]
                     [--webhook-id <whk_...>]

Sends the SecMon API document's example events to a webhook receiver, each with the headers and
signatures the service sends, and prints what the receiver answered.

  --url <url>             the receiver (required)
  --secret <secret>       the webhook's secret: signs each event (unsigned without)
  --event <type>|all      one event type, or every one (default all)
  --example <name>        that named example of each event instead of its first
  --webhook-id <whk_...>  the X-Service-Webhook-Id sent (default: the document's example id)
  -h, --help              this help

Event types: ${EVENT_TYPES.join(', ')}.
Exit status: 0 every event answered 2xx; 1 one was not (the service would retry it); 2 bad options.`;
const WEBHOOK_ID = /^whk_[0-7][0-9a-hjkmnp-tv-z]{25}$/;

function fail(message: string): never {
  process.stderr.write(usageError(COMMAND, message));
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      url: { type: 'string' },
      secret: { type: 'string' },
      event: { type: 'string', default: 'all' },
      example: { type: 'string' },
      'webhook-id': { type: 'string' },
      ...HELP_OPTION,
    },
    strict: true,
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!values.url || !URL.canParse(values.url) || !/^https?:$/.test(new URL(values.url).protocol)) {
  fail('--url must be an http(s) URL');
}
const eventName = values.event;
if (eventName !== 'all' && !isEventType(eventName)) fail(`unknown event type "${eventName}"`);
if (values['webhook-id'] !== undefined && !WEBHOOK_ID.test(values['webhook-id'])) {
  fail('--webhook-id must be whk_ followed by 26 lowercase Crockford base32 characters');
}

let requests;
try {
  requests = buildDeliveries({
    events: eventName === 'all' ? EVENT_TYPES : [eventName],
    ...(values.example === undefined ? {} : { example: values.example }),
    ...(values['webhook-id'] === undefined ? {} : { webhookId: values['webhook-id'] }),
    secret: values.secret ?? null,
  });
} catch (error) {
  if (error instanceof EventSelectionError) fail(error.message);
  throw error;
}

process.stdout.write(`POSTing ${requests.length} event(s) to ${values.url} ${values.secret ? '(signed)' : '(unsigned: no --secret)'}\n`);
const results = await deliverAll(values.url, requests);
process.stdout.write(table(results));
const failures = results.filter((result) => !delivered(result)).length;
process.stdout.write(
  failures === 0
    ? `all ${results.length} delivered (2xx)\n`
    : `${failures} of ${results.length} not delivered: the service would retry them\n`,
);
process.exitCode = failures === 0 ? 0 : 1;

function table(rows: DeliveryResult[]): string {
  const lines = [['event', 'example', 'delivery', 'answer', 'ms']].concat(
    rows.map((row) => [
      row.eventType,
      row.name,
      row.headers['x-service-delivery'] ?? '',
      'status' in row ? String(row.status) : `error ${row.error}`,
      String(row.ms),
    ]),
  );
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  return lines
    .map(
      (line) =>
        `${line
          .map((cell, column) => cell.padEnd(widths[column]!))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
}
