// Faults in what the service sends to webhooks and how it takes the receiver's answer: deliveries
// dropped, held, sent twice, with a header or data rewritten (signed again where the secret is known).
import { entryOver, serviceSignature } from '../../src/kit/oracle.ts';
import type { Fault } from '../fault-proxy.ts';
import { type Delivered, isJson } from './match.ts';

/** Rewrites each delivery on its way to the receiver (undefined: dropped). */
export function deliveries(rewrite: (delivery: Delivered) => Delivered | undefined): Fault {
  return { delivery: (headers, body) => rewrite({ headers, body }) };
}

/** Drops deliveries whose body `when` picks (all by default): the service answered for the receiver. */
export function dropDelivery(when: (body: Record<string, unknown>) => boolean = () => true): Fault {
  return {
    delivery: (headers, body) => (when(JSON.parse(body.toString('utf8')) as Record<string, unknown>) ? undefined : { headers, body }),
  };
}

/** Holds each delivery for `ms()` milliseconds on its way (a draw per delivery), so they also come out of order. */
export function heldDeliveries(ms: () => number): Fault {
  return { deliveryDelayMs: ms };
}

/** Sends every delivery twice, after a random pause. */
export function duplicatedDeliveries(): Fault {
  return { duplicateDeliveries: true };
}

/** Changes how each delivery goes on to the receiver (`forward` sends it once and gives the answer): several at once, one after another. */
export function forwarded(how: NonNullable<Fault['forwarding']>): Fault {
  return { forwarding: how };
}

/** Rewrites the receiver's answer to each delivery on its way back to the service. */
export function receiverAnswer(rewrite: NonNullable<Fault['deliveryAnswer']>): Fault {
  return { deliveryAnswer: rewrite };
}

const eventIn = (body: Buffer) => {
  try {
    return (JSON.parse(body.toString('utf8')) as { event?: unknown }).event;
  } catch {
    return undefined;
  }
};

/** Rewrites (undefined: removes) a header of the deliveries of `event` (all by default); `name` lowercase. */
export function deliveryHeader(
  name: string,
  rewrite: (value: string | undefined, delivery: Delivered) => string | undefined,
  event?: string,
): Fault {
  return {
    delivery: (headers, body) => {
      if (event !== undefined && eventIn(body) !== event) return { headers, body };
      const { [name]: value, ...rest } = headers;
      const next = rewrite(value, { headers, body });
      return { headers: next === undefined ? rest : { ...rest, [name]: next }, body };
    },
  };
}

/** The two signatures a sender computes for `body` with `secret`: X-Service-Signature and one webhook-signature entry. */
export const sign = {
  service: (secret: string, body: Buffer) => serviceSignature(body, secret),
  standard: (secret: string, signed: Buffer | string) => entryOver(signed, secret),
};

/**
 * A delivery fault that knows its webhook's secret (learnt from the webhook writes it sees), for a
 * service that signs what it should not: `rewrite` gets the secret, undefined for an unsigned webhook.
 */
export function withSecret(rewrite: (delivery: Delivered, secret: string | undefined) => Delivered): Fault {
  const secrets = new Map<string, string>();
  return {
    response: (request, response) => {
      if (!/^\/v1\/webhooks/.test(request.path) || request.body.length === 0 || response.status >= 300 || !isJson(response))
        return undefined;
      const { secret } = JSON.parse(request.body.toString('utf8')) as { secret?: unknown };
      const { id } = JSON.parse(response.body.toString('utf8')) as { id?: unknown };
      if (typeof secret === 'string') secrets.set(String(id), secret);
      else if (secret === null) secrets.delete(String(id));
      return undefined;
    },
    delivery: (headers, body) => rewrite({ headers, body }, secrets.get(headers['x-service-webhook-id'] ?? '')),
  };
}

/** Edits the JSON body of the deliveries of `event` and signs the new bytes again, as a service that sent wrong data would. */
export function deliveryJson(event: string, edit: (json: Record<string, unknown>) => void): Fault {
  return withSecret(({ headers, body }, secret) => {
    if (eventIn(body) !== event) return { headers, body };
    const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    edit(json);
    const edited = Buffer.from(JSON.stringify(json));
    if (secret === undefined) return { headers, body: edited };
    const signed = Buffer.concat([Buffer.from(`${headers['webhook-id']}.${headers['webhook-timestamp']}.`), edited]);
    return {
      headers: { ...headers, 'x-service-signature': sign.service(secret, edited), 'webhook-signature': sign.standard(secret, signed) },
      body: edited,
    };
  });
}
