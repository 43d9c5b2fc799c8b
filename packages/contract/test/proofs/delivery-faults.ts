// The faults of the deliveries proofs: deliveries signed, stamped or addressed wrongly, and a
// service that remembers what it sent and sends it where or when the document says it must not, or
// reports it wrongly. A fault that keeps state is a factory (a fresh state per proof).
import { randomUUID } from 'node:crypto';
import {
  all,
  answer,
  deliveries,
  deliveryHeader,
  deliveryJson,
  field,
  header,
  receiverAnswer,
  requestBody,
  sign,
  withSecret,
} from '../fault-dsl.ts';
import type { Fault } from '../fault-proxy.ts';

type Delivered = { headers: Record<string, string>; body: Buffer };
const parsed = (body: Buffer) => JSON.parse(body.toString('utf8')) as { event?: string; data?: Record<string, unknown> };
const WEBHOOK_WRITE = /^\/v1\/webhooks(\/whk_[^/?]+)?$/;
const WEBHOOK_ITEM = /^\/v1\/webhooks\/whk_[^/?]+$/;
const WEBHOOK_CREATE = /^\/v1\/webhooks$/;
const idOf = (body: Buffer) => String((JSON.parse(body.toString('utf8')) as { id?: unknown }).id);

/** Sends a delivery the way the service would, straight to the receiver's URL. */
async function post(url: string, { headers, body }: Delivered): Promise<void> {
  await (await fetch(url, { method: 'POST', headers, body: new Uint8Array(body), redirect: 'manual' })).arrayBuffer();
}

/** The same delivery as another one (a new X-Service-Delivery and webhook-id), as a service sending it again would. */
const anew = (delivery: Delivered): Delivered => {
  const id = randomUUID();
  return { headers: { ...delivery.headers, 'x-service-delivery': id, 'webhook-id': id }, body: delivery.body };
};

export const delivered = {
  /** X-Service-Signature made with `secret`. */
  serviceSigned: (d: Delivered, secret: string): Delivered => ({
    ...d,
    headers: { ...d.headers, 'x-service-signature': sign.service(secret, d.body) },
  }),
  /** One more webhook-signature entry, made with `secret`. */
  withEntry: (d: Delivered, secret: string): Delivered => {
    const signed = Buffer.concat([Buffer.from(`${d.headers['webhook-id']}.${d.headers['webhook-timestamp']}.`), d.body]);
    return { ...d, headers: { ...d.headers, 'webhook-signature': `${d.headers['webhook-signature']} ${sign.standard(secret, signed)}` } };
  },
  /** The webhook-signature entries in the other order. */
  reversed: (d: Delivered): Delivered => ({
    ...d,
    headers: { ...d.headers, 'webhook-signature': String(d.headers['webhook-signature']).split(' ').reverse().join(' ') },
  }),
};

/**
 * The secrets each webhook was given: `rewrite` gets each delivery with the secrets given before the
 * latest one (newest first), whether the latest write removed the secret, and every write's secret
 * (newest first, null where it removed the secret).
 */
export function rotation(
  rewrite: (d: Delivered, earlier: string[], removed: boolean, history: readonly (string | null)[]) => Delivered,
): Fault {
  const history = new Map<string, (string | null)[]>();
  return all(
    answer({ path: WEBHOOK_WRITE }, (request, response) => {
      if (request.body.length === 0 || response.status >= 300 || response.body.length === 0) return undefined;
      const sent = JSON.parse(request.body.toString('utf8')) as { secret?: unknown };
      if (!('secret' in sent)) return undefined;
      const id = idOf(response.body);
      history.set(id, [typeof sent.secret === 'string' ? sent.secret : null, ...(history.get(id) ?? [])]);
      return undefined;
    }),
    deliveries((delivery) => {
      const sent = history.get(delivery.headers['x-service-webhook-id'] ?? '') ?? [];
      const [latest, ...earlier] = sent;
      return rewrite(
        delivery,
        earlier.filter((s): s is string => s !== null),
        latest === null,
        sent,
      );
    }),
  );
}

/** Every finding.created sent so far goes again to each webhook created later for that type. */
export function replayedToLaterWebhooks(): Fault {
  const sent: Delivered[] = [];
  return all(
    deliveries((delivery) => {
      if (parsed(delivery.body).event === 'finding.created') sent.push(delivery);
      return delivery;
    }),
    answer({ method: 'POST', path: WEBHOOK_CREATE, status: 201 }, async (request) => {
      const { url, events } = JSON.parse(request.body.toString('utf8')) as { url: string; events: string[] };
      if (events.includes('finding.created')) for (const earlier of [...sent]) await post(url, anew(earlier));
      return undefined;
    }),
  );
}

/** finding.resolved goes to each webhook once per finding: resolving it again sends nothing. */
export function dropRepeatedResolution(): Fault {
  const first = new Map<string, string>();
  return deliveries((delivery) => {
    const { headers } = delivery;
    const event = parsed(delivery.body);
    if (event.event !== 'finding.resolved') return delivery;
    const key = `${headers['x-service-webhook-id']} ${String(event.data?.finding_id)}`;
    if (!first.has(key)) first.set(key, String(headers['x-service-delivery']));
    return first.get(key) === headers['x-service-delivery'] ? delivery : undefined;
  });
}

/** Every finding.created to one webhook carries the X-Service-Delivery of the first. */
export function oneIdPerWebhook(): Fault {
  const ids = new Map<string, string>();
  return deliveries(({ headers, body }) => {
    if (parsed(body).event !== 'finding.created') return { headers, body };
    const webhook = String(headers['x-service-webhook-id']);
    const id = ids.get(webhook) ?? String(headers['x-service-delivery']);
    ids.set(webhook, id);
    return { headers: { ...headers, 'x-service-delivery': id, 'webhook-id': id }, body };
  });
}

/** A webhook that answered 410 still gets the last delivery again whenever a finding is created. */
export function sentAfterGone(): Fault {
  const urls = new Map<string, string>();
  const gone = new Map<string, Delivered>();
  let last: Delivered | undefined;
  return all(
    answer({ method: 'POST', path: WEBHOOK_CREATE, status: 201 }, (request, response) => {
      urls.set(idOf(response.body), String((JSON.parse(request.body.toString('utf8')) as { url?: unknown }).url));
      return undefined;
    }),
    answer({ method: 'POST', path: /^\/v1\/findings$/, status: 201 }, async () => {
      for (const [id, delivery] of gone) await post(urls.get(id)!, anew(delivery));
      return undefined;
    }),
    deliveries((delivery) => (last = delivery)),
    receiverAnswer((answered) => {
      if (answered.status === 410 && last) gone.set(String(last.headers['x-service-webhook-id']), last);
      return answered;
    }),
  );
}

/** A receiver's redirect is followed: the delivery goes to its Location too. */
export function redirectsFollowed(): Fault {
  let last: Delivered | undefined;
  return all(
    deliveries((delivery) => (last = delivery)),
    receiverAnswer((answered) => {
      const location = answered.headers.location;
      if (answered.status >= 300 && answered.status < 400 && location && last) void post(location, last).catch(() => undefined);
      return answered;
    }),
  );
}

/** last_delivery keeps the outcome of a webhook's first attempt instead of its latest. */
export function lastDeliveryFrozen(): Fault {
  const firstAnswer = new Map<string, number>();
  let last: Delivered | undefined;
  return all(
    field({ method: 'GET', path: WEBHOOK_ITEM }, (json) => {
      const status = firstAnswer.get(String(json.id));
      const outcome = json.last_delivery as Record<string, unknown> | null;
      if (outcome && status !== undefined) Object.assign(outcome, { status_code: status, succeeded: status >= 200 && status < 300 });
    }),
    deliveries((delivery) => (last = delivery)),
    receiverAnswer((answered) => {
      const webhook = String(last?.headers['x-service-webhook-id']);
      if (!firstAnswer.has(webhook)) firstAnswer.set(webhook, answered.status);
      return answered;
    }),
  );
}

const reformatted = (body: Buffer) => Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8')), null, 2));
const dataOf = (json: Record<string, unknown>) => json.data as Record<string, unknown>;
const signedOver = (headers: Record<string, string>, body: Buffer) =>
  Buffer.concat([Buffer.from(`${headers['webhook-id']}.${headers['webhook-timestamp']}.`), body]);

export const uppercaseHex = deliveryHeader('x-service-signature', (value) => value && `sha256=${value.slice(7).toUpperCase()}`);
export const reserialised = deliveries(({ headers, body }) => ({ headers, body: reformatted(body) }));
export const signedWithoutSecret = deliveryHeader('x-service-signature', (value, { body }) => value ?? sign.service('guessed', body));
export const standardWithoutSecret = deliveryHeader('webhook-signature', (value, { body }) => value ?? sign.standard('guessed', body));
export const noStandardSignature = deliveryHeader('webhook-signature', (value, { headers }) =>
  headers['x-service-signature'] ? undefined : value,
);
export const hexStandardSignature = () =>
  withSecret(({ headers, body }, secret) => {
    if (secret === undefined) return { headers, body };
    const hex = Buffer.from(sign.standard(secret, signedOver(headers, body)).slice(3), 'base64').toString('hex');
    return { headers: { ...headers, 'webhook-signature': `v1,${hex}` }, body };
  });
/** webhook-signature over what `signed` makes of the id, the timestamp and the body. */
export const standardSignedOver = (signed: (id: string, time: string, body: Buffer) => string | Buffer) => () =>
  withSecret(({ headers, body }, secret) => {
    if (secret === undefined) return { headers, body };
    const entry = sign.standard(
      secret,
      Buffer.concat([Buffer.from(signed(headers['webhook-id']!, headers['webhook-timestamp']!, body)), body]),
    );
    return { headers: { ...headers, 'webhook-signature': entry }, body };
  });
export const eventHeaderOtherThan = (event: string) =>
  deliveryHeader('x-service-event', () => (event === 'finding.created' ? 'finding.resolved' : 'finding.created'), event);
export const hourEarlier = (event: string) => () =>
  deliveryJson(event, (json) => {
    json.timestamp = new Date(Date.parse(String(json.timestamp)) - 3_600_000).toISOString();
  });
export const policyDropped = () => deliveryJson('finding.created', (json) => void (dataOf(json).policy_id = null));
export const hostForAddress = () => deliveryJson('device.connected', (json) => void (dataOf(json).ip_address = 'agent.local'));
export const otherFinding = () => deliveryJson('compliance.changed', (json) => void (dataOf(json).finding_id = `fnd_${'0'.repeat(26)}`));
export const paddedPast64KiB = deliveries(({ headers, body }) => ({
  headers,
  body: Buffer.concat([body.subarray(0, -1), Buffer.alloc(65_536, ' '), body.subarray(-1)]),
}));
export const secretInPutHeader = header({ method: 'PUT', path: WEBHOOK_ITEM }, 'x-webhook-secret', (value, request) =>
  String((JSON.parse(request.body.toString('utf8')) as { secret?: unknown }).secret ?? value),
);
export const goneNotRecorded = field({ method: 'GET', path: WEBHOOK_ITEM }, (json) => {
  const last = json.last_delivery as Record<string, unknown> | null;
  if (last?.status_code === 410) last.status_code = null;
});
export const succeededFlipped = field({ method: 'GET', path: WEBHOOK_ITEM }, (json) => {
  const last = json.last_delivery as Record<string, unknown> | null;
  if (last) last.succeeded = !last.succeeded;
});
/** The receiver's answers `from` picks reach the service as `to`: it judges them as if they were. */
export const answered = (from: (status: number) => boolean, to: number) =>
  receiverAnswer(({ status, headers }) => ({ status: from(status) ? to : status, headers }));
export const newIdEveryAttempt = deliveries(({ headers, body }) => {
  const id = randomUUID();
  return { headers: { ...headers, 'x-service-delivery': id, 'webhook-id': id }, body };
});
/** A retry sends the event re-serialised, not the bytes of the first attempt. */
export function retryReformatted(): Fault {
  const seen = new Set<string>();
  return deliveries(({ headers, body }) => {
    const again = seen.has(String(headers['x-service-delivery']));
    seen.add(String(headers['x-service-delivery']));
    return { headers, body: again ? reformatted(body) : body };
  });
}
export const eventsDeduplicated = requestBody({ method: 'POST', path: /^\/v1\/webhooks$/ }, (json) => {
  if (Array.isArray(json.events)) json.events = [...new Set(json.events)].slice(0, 6);
});
/** Subscriptions to the events the API does not cause (device and scan events) refused as unknown types. */
export const deviceSubscriptionRefused = answer({ method: 'POST', path: WEBHOOK_CREATE }, (request) =>
  /"(device\.\w+|scan\.completed)"/.test(request.body.toString('utf8'))
    ? {
        status: 400,
        headers: { 'content-type': 'application/problem+json' },
        body: Buffer.from(JSON.stringify({ type: 'https://secmon.dev/problems/validation', title: 'Validation failed', status: 400 })),
      }
    : undefined,
);

/** finding.resolved sent again by an update that leaves a finding resolved, not only when it enters resolved. */
export function resolvedWhileResolved(): Fault {
  const urls = new Map<string, string>();
  const sent = new Map<string, Delivered[]>();
  const resolved = new Set<string>();
  const owed = new Set<string>();
  const copy = (delivery: Delivered) => {
    const url = urls.get(String(delivery.headers['x-service-webhook-id']));
    if (url) void post(url, anew(delivery)).catch(() => undefined);
  };
  return all(
    answer({ method: 'POST', path: WEBHOOK_CREATE, status: 201 }, (request, response) => {
      urls.set(idOf(response.body), String((JSON.parse(request.body.toString('utf8')) as { url?: unknown }).url));
      return undefined;
    }),
    answer({ method: 'PUT', path: /^\/v1\/findings\/[^/?]+$/, status: 200 }, (_request, response) => {
      const { id, status } = JSON.parse(response.body.toString('utf8')) as { id: string; status: string };
      if (status === 'resolved' && resolved.has(id)) {
        // What was sent already goes again now; what is still on its way, when it passes.
        for (const delivery of sent.get(id) ?? []) copy(delivery);
        owed.add(id);
      }
      if (status === 'resolved') resolved.add(id);
      else resolved.delete(id);
      return undefined;
    }),
    deliveries((delivery) => {
      const body = parsed(delivery.body);
      const id = String(body.data?.finding_id);
      if (body.event === 'finding.resolved') {
        sent.set(id, [...(sent.get(id) ?? []), delivery]);
        if (owed.has(id)) copy(delivery);
      }
      return delivery;
    }),
  );
}
