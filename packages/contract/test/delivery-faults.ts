// The rule faults of what the service sends: deliveries at webhooks that must not get them,
// events on the wrong change, delivery ids, retries, 410 and the Standard Webhooks headers.
import { createHash, randomUUID } from 'node:crypto';
import { editJson, type Fault } from './fault-proxy.ts';

export const asJson = (body: Buffer) => JSON.parse(body.toString('utf8')) as Record<string, unknown>;
export const asBody = (json: unknown) => Buffer.from(JSON.stringify(json));

export const disabledWebhooksReceive: Fault = {
  request: (method, path, body) => {
    if (method !== 'POST' || path !== '/v1/webhooks' || body.length === 0) return body;
    return asBody({ ...asJson(body), enabled: true });
  },
};
// Webhooks created disabled are enabled upstream while every answer still says disabled: an
// implementation that stores the flag but delivers regardless.
const shownDisabled = new Set<string>();
export const disabledButDelivering: Fault = {
  request: (method, path, body) => {
    if (method !== 'POST' || path !== '/v1/webhooks' || body.length === 0 || asJson(body).enabled !== false) return body;
    return asBody({ ...asJson(body), enabled: true, description: 'kit-fault-disabled' });
  },
  response: (request, response) => {
    if (!request.path.startsWith('/v1/webhooks') || !/json/.test(response.headers['content-type'] ?? '')) return undefined;
    return editJson(response, (json) => {
      for (const item of Array.isArray(json.data) ? (json.data as Record<string, unknown>[]) : [json]) {
        if (item.description === 'kit-fault-disabled') shownDisabled.add(String(item.id));
        if (shownDisabled.has(String(item.id))) item.enabled = false;
      }
    });
  },
};
// A test event raised for one webhook goes to every subscriber (webhook_id ignored).
export const targetIgnored: Fault = {
  request: (method, path, body) => {
    if (method !== 'POST' || path !== '/_simulator/events' || body.length === 0) return body;
    const { webhook_id: _ignored, ...rest } = asJson(body);
    return asBody(rest);
  },
};
// Suppressing resolves the finding upstream (so the service sends finding.resolved) while the
// answer still says suppressed, as an implementation that treats both end states alike would.
const isFindingPut = (method: string, path: string) => method === 'PUT' && /^\/v1\/findings\/[^/?]+$/.test(path);
const asSuppression = (body: Buffer) => {
  const json = body.length > 0 ? asJson(body) : {};
  return json.status === 'suppressed' ? json : undefined;
};
export const resolvedSentOnSuppress: Fault = {
  request: (method, path, body) => {
    const suppression = isFindingPut(method, path) && asSuppression(body);
    if (!suppression) return body;
    const resolution = suppression.resolution as Record<string, unknown>;
    return asBody({ ...suppression, status: 'resolved', resolution: { ...resolution, reason: 'fixed' } });
  },
  response: (request, response) => {
    const suppression = isFindingPut(request.method, request.path) && asSuppression(request.body);
    if (!suppression || response.status !== 200) return undefined;
    return editJson(response, (json) => {
      json.status = 'suppressed';
      json.resolution = suppression.resolution;
    });
  },
};
export const oneDeliveryIdForAllWebhooks: Fault = {
  delivery: (headers, body) => ({
    headers: {
      ...headers,
      'x-service-delivery': createHash('sha256')
        .update(body)
        .digest('hex')
        .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*/, '$1-$2-$3-$4-$5'),
    },
    body,
  }),
};
export const newDeliveryIdOnRetry: Fault = {
  delivery: (headers, body) => ({ headers: { ...headers, 'x-service-delivery': randomUUID() }, body }),
};
export const goneNotDisabling: Fault = { deliveryAnswer: ({ status, headers }) => ({ status: status === 410 ? 500 : status, headers }) };
const standardHeader = (name: string, value: (current: string) => string): Fault => ({
  delivery: (headers, body) => ({ headers: headers[name] === undefined ? headers : { ...headers, [name]: value(headers[name]) }, body }),
});
export const webhookIdNotDeliveryId = standardHeader('webhook-id', () => randomUUID());
export const wrongStandardSignature = standardHeader('webhook-signature', () => `v1,${Buffer.alloc(32).toString('base64')}`);
export const staleTimestamp = standardHeader('webhook-timestamp', (current) => String(Number(current) - 600));
export const oneEntryAfterRotation = standardHeader('webhook-signature', (current) => current.split(' ')[0]!);
