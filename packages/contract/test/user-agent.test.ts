// The kit names itself in every request (`User-Agent: secmon-contract/<version>`): gateways and
// firewalls in front of a target may refuse requests that carry no User-Agent, and a team reading
// its target's logs can tell the kit's requests from its users'.
import { createServer, type Server } from 'node:http';
import { loadDocument } from 'secmon-api/src/document';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKitContext } from '../src/kit/context.ts';
import { listening } from './replay-run.ts';

const seen: (string | undefined)[] = [];
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers['user-agent']);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"next_cursor":null}');
  });
  url = await listening(server);
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('User-Agent', () => {
  it('is secmon-contract/<version> on the requests of a run, unless a request sets its own', async () => {
    const ctx = createKitContext({ baseUrl: url, apiKey: 'kit-test-key', profile: 'stateless' });
    await ctx.http.send({ method: 'GET', path: '/v1/policies' });
    await ctx.http.send({ method: 'GET', path: '/v1/policies', headers: { 'user-agent': 'a-browser/1.0' } });
    expect(seen).toEqual([`secmon-contract/${loadDocument().info.version}`, 'a-browser/1.0']);
  });
});
