// What the shim hands Prism of the Authorization header: the credential in the one spelling Prism
// takes (`Bearer` and one space), read as the server reads it, and no header at all when it
// carries no bearer token, so Prism answers it as missing. The stand-in for Prism records what
// it is sent; launcher.test.ts pins what bare Prism does with the other spellings, and the
// contract kit's credential-spellings check runs against the real mock (mock.test.ts in the kit).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Shim, startShim } from '../src/contract-shim.ts';

const received: (string | undefined)[] = [];
const prism = createServer((req, res) => {
  received.push(req.headers.authorization);
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"next_cursor":null}');
});
let shim: Shim;
beforeAll(async () => {
  prism.listen(0, '127.0.0.1');
  await once(prism, 'listening');
  shim = await startShim({ target: `http://127.0.0.1:${(prism.address() as AddressInfo).port}`, host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await shim.close();
  prism.close();
});

it.each([
  ['bearer mock-key', 'Bearer mock-key'],
  ['BEARER mock-key', 'Bearer mock-key'],
  ['Bearer   mock-key', 'Bearer mock-key'],
  ['XBearer mock-key', undefined],
  ['Bearer mock-key and-more', undefined],
  ['mock-key', undefined],
])('Authorization: %s reaches Prism as %s', async (sent, forwarded) => {
  received.length = 0;
  const answer = await fetch(`${shim.url}/v1/findings`, { headers: { authorization: sent } });
  await answer.body?.cancel();
  expect(received).toEqual([forwarded]);
});
