// A loopback proxy that turns a correct implementation into a deliberately broken one, so the
// fault tests can prove the kit catches each kind of break. It forwards every request to the
// upstream and lets a Fault rewrite the response; for event faults it also points webhook URLs
// at a relay on itself that tampers with each delivery before passing it on to the receiver.
// Requests Node's parser refuses, and header fields that stall, go to the upstream byte for byte
// (raw-relay.ts), so the upstream answers them and `raw` can rewrite that answer.
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadDocument } from 'secmon-api/src/document';
import { type Dispatcher, request } from 'undici';
import { type RawRewrite, STALL_MS, startRawRelay } from './raw-relay.ts';

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Fault {
  /** Rewrites the path (and query) before it goes upstream, as an implementation that ignores a part would. */
  path?(method: string, path: string): string;
  /** Rewrites request headers before they go upstream (names lowercase). */
  headers?(headers: Record<string, string>): Record<string, string>;
  /** Rewrites a request body before it goes upstream, as an implementation that reads it wrongly would. */
  request?(method: string, path: string, body: Buffer): Buffer;
  /** Rewrites an upstream response; undefined leaves it as is. */
  response?(
    request: { method: string; path: string; body: Buffer; headers: Record<string, string> },
    response: ProxiedResponse,
    /** Sends a request to the upstream as it stands now (a fault that answers from the current state). */
    upstream: (method: string, path: string, headers: Record<string, string>) => Promise<ProxiedResponse>,
  ): ProxiedResponse | undefined | Promise<ProxiedResponse | undefined>;
  /**
   * Rewrites the headers and body of a webhook delivery on its way to the receiver; undefined drops
   * it (the service answered 204 for the receiver, as a service that never sent it).
   */
  delivery?(headers: Record<string, string>, body: Buffer): { headers: Record<string, string>; body: Buffer } | undefined;
  /** Legal variations: every delivery is sent twice, after a random pause (so they also come out of order). */
  duplicateDeliveries?: boolean;
  /** Legal variation: every delivery is held this long (ms, drawn per delivery) before it goes on, so they also come out of order. */
  deliveryDelayMs?(): number;
  /**
   * How a delivery goes on to the receiver (`forward` sends it once and gives the receiver's answer):
   * a service that sends it several times at once, or one delivery after another.
   */
  forwarding?(forward: () => Promise<Response>): Promise<Response>;
  /** Legal variation: response bodies are sent in chunks (Transfer-Encoding: chunked). */
  chunked?: boolean;
  /** Rewrites the receiver's answer to a delivery (its headers given) on its way back to the service (which then judges it). */
  deliveryAnswer?(
    answer: { status: number; headers: Record<string, string> },
    delivery: Record<string, string>,
  ): { status: number; headers: Record<string, string> };
  /** Rewrites the upstream's answer to a request Node's parser refuses or whose header fields stall. */
  raw?: RawRewrite;
}

const DROPPED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'content-encoding']);
const RELAY = '/_relay/';

export async function startFaultProxy(upstream: string, fault: Fault): Promise<{ url: string; close(): Promise<void> }> {
  let self = '';
  // Relayed URLs by token, so a relayed URL is short whatever it stands for (one at the document's
  // maximum length included) and the same URL gets the same token.
  const relayed: string[] = [];
  const tokens = new Map<string, string>();
  const relayUrls: RelayUrls = {
    to: (url) => {
      let token = tokens.get(url);
      if (token === undefined) tokens.set(url, (token = `t${relayed.push(url) - 1}`));
      return `${self}${RELAY}${token}`;
    },
    from: (token) => relayed[Number(token.slice(1))],
  };
  const fetchUpstream = (method: string, path: string, headers: Record<string, string>) => send(upstream + path, method, headers, null);
  const options = { headersTimeout: STALL_MS, connectionsCheckingInterval: STALL_MS / 4 };
  const server = createServer(options, async (req, res) => {
    try {
      const body = await readBody(req);
      const path = req.url ?? '/';
      if (path.startsWith(RELAY)) {
        const target = relayUrls.from(path.slice(RELAY.length));
        if (target === undefined) {
          res.writeHead(404).end();
          return;
        }
        const tampered = fault.delivery ? fault.delivery(headersOf(req), body) : { headers: headersOf(req), body };
        if (!tampered) {
          res.writeHead(204).end();
          return;
        }
        const forward = () =>
          fetch(target, { method: 'POST', headers: tampered.headers, body: new Uint8Array(tampered.body), redirect: 'manual' });
        const delay = fault.deliveryDelayMs?.() ?? 0;
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
        if (fault.duplicateDeliveries) {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
          await (await forward()).arrayBuffer();
        }
        const answer = await (fault.forwarding ? fault.forwarding(forward) : forward());
        const received = { status: answer.status, headers: Object.fromEntries([...answer.headers].filter(([name]) => !DROPPED.has(name))) };
        const passed = fault.deliveryAnswer?.(received, tampered.headers) ?? received;
        res.writeHead(passed.status, passed.headers).end(Buffer.from(await answer.arrayBuffer()));
        return;
      }
      const rewritten = fault.request?.(req.method ?? 'GET', path, body) ?? body;
      const forwarded =
        fault.delivery || fault.deliveryAnswer || fault.duplicateDeliveries || fault.deliveryDelayMs || fault.forwarding
          ? relayWebhookUrls(req.method ?? 'GET', path, rewritten, relayUrls)
          : rewritten;
      const answer = await send(
        upstream + (fault.path?.(req.method ?? 'GET', path) ?? path),
        req.method ?? 'GET',
        fault.headers?.(headersOf(req)) ?? headersOf(req),
        forwarded.length > 0 ? forwarded : null,
      );
      const original: ProxiedResponse = { ...answer, body: unrelayed(answer.body, self, relayUrls) };
      const sent =
        (await fault.response?.({ method: req.method ?? 'GET', path, body, headers: headersOf(req) }, original, fetchUpstream)) ?? original;
      if (fault.chunked && sent.body.length > 1) {
        res.writeHead(sent.status, sent.headers);
        res.write(sent.body.subarray(0, sent.body.length >> 1));
        res.end(sent.body.subarray(sent.body.length >> 1));
      } else res.writeHead(sent.status, sent.headers).end(sent.body);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const relay = await startRawRelay(server, (server.address() as AddressInfo).port, new URL(upstream), fault.raw);
  self = `http://127.0.0.1:${relay.port}`;
  return {
    url: self,
    close: async () => {
      await relay.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A request to the upstream, its answer read whole. undici's request rather than fetch: a third of
 * the CPU per request, which the proofs spend thousands of times a run. It decodes no content
 * coding, so the upstream is asked for none (what reaches the client is never coded either way).
 */
async function send(url: string, method: string, headers: Record<string, string>, body: Buffer | null): Promise<ProxiedResponse> {
  const answer = await request(url, {
    method: method as Dispatcher.HttpMethod,
    headers: { ...headers, 'accept-encoding': 'identity' },
    body,
  });
  const kept = Object.entries(answer.headers).filter(
    (entry): entry is [string, string | string[]] => entry[1] !== undefined && !DROPPED.has(entry[0]),
  );
  return {
    status: answer.statusCode,
    headers: Object.fromEntries(kept.map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value])),
    body: Buffer.from(await answer.body.arrayBuffer()),
  };
}

/** The document's bounds of a webhook URL: one outside them is refused, not relayed. */
const WEBHOOK_URL = (loadDocument().components?.schemas?.WebhookUrl ?? {}) as { minLength?: number; maxLength?: number };

interface RelayUrls {
  /** The relay's URL standing in for `url`. */
  to(url: string): string;
  /** The URL a relay token stands in for. */
  from(token: string): string | undefined;
}

/** Webhook create/update bodies get their (valid) `url` pointed at the relay, which forwards to the original. */
function relayWebhookUrls(method: string, path: string, body: Buffer, relay: RelayUrls): Buffer {
  if (!/^\/v1\/webhooks(\/|$)/.test(path) || (method !== 'POST' && method !== 'PUT') || body.length === 0) return body;
  try {
    const json = JSON.parse(body.toString('utf8')) as { url?: unknown };
    // A URL the service must refuse goes through as it is, so the refusal is still the upstream's
    // (the relay's own URL is long enough to hide one too short).
    const { minLength = 0, maxLength = Number.POSITIVE_INFINITY } = WEBHOOK_URL;
    if (typeof json.url !== 'string' || !/^https?:\/\/\S+$/.test(json.url) || json.url.length < minLength || json.url.length > maxLength)
      return body;
    json.url = relay.to(json.url);
    return Buffer.from(JSON.stringify(json));
  } catch {
    return body;
  }
}

/** The webhook URLs the client gave, where the relay stands in for them: a client sees what it sent. */
function unrelayed(body: Buffer, self: string, relay: RelayUrls): Buffer {
  const text = body.toString('utf8');
  if (!text.includes(RELAY)) return body;
  const relayed = new RegExp(`${self.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${RELAY}(t\\d+)`, 'g');
  return Buffer.from(text.replace(relayed, (match, token: string) => relay.from(token) ?? match));
}

function headersOf(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(req.headers)
      .filter(([name, value]) => !DROPPED.has(name) && typeof value === 'string')
      .map(([name, value]) => [name, value as string]),
  );
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Rewrites a JSON response body (the proxy keeps the status and headers). */
export function editJson(response: ProxiedResponse, edit: (json: Record<string, unknown>) => void): ProxiedResponse {
  const json = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
  edit(json);
  return { ...response, body: Buffer.from(JSON.stringify(json)) };
}
