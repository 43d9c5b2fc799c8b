// `node packages/contract/test/stand-in.ts <fault>`: a stand-in implementation for runs outside a
// test (the diagnosis benchmark): the reference server on a fresh in-memory database behind the
// fault proxy, which breaks one thing. Prints one JSON line — the URL to test and the keys — and
// runs until SIGTERM or SIGINT. `correct` breaks nothing.
import { startServer } from '../../../server/server.ts';
import { field, sign, withoutQuery, withSecret } from './fault-dsl.ts';
import { type Fault, startFaultProxy } from './fault-proxy.ts';
import { anyMoveAccepted } from './proofs/resource-faults.ts';
import { READER_KEY, referenceConfig, WRITER_KEY } from './reference-config.ts';

/** One fault per kind the diagnosis must pin down, by the name the benchmark passes. */
const STAND_IN_FAULTS: Record<string, Fault> = {
  correct: {},
  /** GET /v1/findings ignores `limit`: every page is the default size. */
  'limit-ignored': withoutQuery({ method: 'GET', path: /^\/v1\/findings(\?|$)/ }, 'limit'),
  /** getPolicy answers without `updated_at`, which its schema requires. */
  'missing-field': field({ method: 'GET', path: /^\/v1\/policies\/pol_[^/?]+$/, status: 200 }, (json) => void delete json.updated_at),
  /** A finding moved where its life cycle forbids (a 409 answered as a success, the finding unchanged). */
  'forbidden-transition': anyMoveAccepted,
  /** Deliveries signed with another key than the webhook's secret. */
  'wrong-signature': withSecret(({ headers, body }, secret) =>
    secret === undefined
      ? { headers, body }
      : { headers: { ...headers, 'x-service-signature': sign.service(`${secret}-not-it`, body) }, body },
  ),
};

const name = process.argv[2] ?? '';
const fault = STAND_IN_FAULTS[name];
if (!fault) {
  process.stderr.write(`usage: node stand-in.ts <${Object.keys(STAND_IN_FAULTS).join('|')}>\n`);
  process.exit(2);
}
const server = await startServer(referenceConfig(':memory:'));
const proxy = await startFaultProxy(server.url, fault);
process.stdout.write(`${JSON.stringify({ url: proxy.url, apiKey: WRITER_KEY, readKey: READER_KEY })}\n`);
const stop = async () => {
  await proxy.close();
  await server.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
