// The rule faults of what the service sends: deliveries at webhooks that must not get them,
// events on the wrong change, delivery ids, retries, 410 and the Standard Webhooks headers.
import { createHash, randomUUID } from 'node:crypto';
import { all, answer, deliveryHeader, deliveryJson, dropDelivery, field, receiverAnswer, requestBody } from './fault-dsl.ts';
import { editJson } from './fault-proxy.ts';

export const asJson = (body: Buffer) => JSON.parse(body.toString('utf8')) as Record<string, unknown>;
export const asBody = (json: unknown) => Buffer.from(JSON.stringify(json));

const WEBHOOK_CREATE = { method: 'POST', path: /^\/v1\/webhooks$/ };

export const disabledWebhooksReceive = requestBody(WEBHOOK_CREATE, (json) => void (json.enabled = true));
// Webhooks created disabled are enabled upstream while every answer still says disabled: an
// implementation that stores the flag but delivers regardless.
const shownDisabled = new Set<string>();
export const disabledButDelivering = all(
  requestBody(WEBHOOK_CREATE, (json) => {
    if (json.enabled === false) Object.assign(json, { enabled: true, description: 'kit-fault-disabled' });
  }),
  field({ path: /^\/v1\/webhooks/ }, (json) => {
    for (const item of Array.isArray(json.data) ? (json.data as Record<string, unknown>[]) : [json]) {
      if (item.description === 'kit-fault-disabled') shownDisabled.add(String(item.id));
      if (shownDisabled.has(String(item.id))) item.enabled = false;
    }
  }),
);
// A test event raised for one webhook goes to every subscriber (webhook_id ignored).
export const targetIgnored = requestBody({ method: 'POST', path: /^\/_simulator\/events$/ }, (json) => void delete json.webhook_id);
// Suppressing resolves the finding upstream (so the service sends finding.resolved) while the
// answer still says suppressed, as an implementation that treats both end states alike would.
const FINDING_PUT = { method: 'PUT', path: /^\/v1\/findings\/[^/?]+$/ };
const asSuppression = (body: Buffer) => {
  const json = body.length > 0 ? asJson(body) : {};
  return json.status === 'suppressed' ? json : undefined;
};
export const resolvedSentOnSuppress = all(
  requestBody(FINDING_PUT, (json) => {
    if (json.status !== 'suppressed') return;
    Object.assign(json, { status: 'resolved', resolution: { ...(json.resolution as Record<string, unknown>), reason: 'fixed' } });
  }),
  answer({ ...FINDING_PUT, status: 200 }, (request, response) => {
    const suppression = asSuppression(request.body);
    if (!suppression) return undefined;
    return editJson(response, (json) => {
      json.status = 'suppressed';
      json.resolution = suppression.resolution;
    });
  }),
);
export const oneDeliveryIdForAllWebhooks = deliveryHeader('x-service-delivery', (_id, { body }) =>
  createHash('sha256')
    .update(body)
    .digest('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*/, '$1-$2-$3-$4-$5'),
);
export const newDeliveryIdOnRetry = deliveryHeader('x-service-delivery', () => randomUUID());
export const goneNotDisabling = receiverAnswer(({ status, headers }) => ({ status: status === 410 ? 500 : status, headers }));
const standardHeader = (name: string, value: (current: string) => string) =>
  deliveryHeader(name, (current) => (current === undefined ? undefined : value(current)));
export const webhookIdNotDeliveryId = standardHeader('webhook-id', () => randomUUID());
export const wrongStandardSignature = standardHeader('webhook-signature', () => `v1,${Buffer.alloc(32).toString('base64')}`);
export const staleTimestamp = standardHeader('webhook-timestamp', (current) => String(Number(current) - 600));
export const oneEntryAfterRotation = standardHeader('webhook-signature', (current) => current.split(' ')[0]!);
export const noComplianceChangedOnDelete = dropDelivery(
  (json) => json.event === 'compliance.changed' && (json.data as Record<string, unknown> | undefined)?.finding_id === null,
);
export const complianceChangedWithoutChange = deliveryJson('compliance.changed', (json) => {
  const data = json.data as Record<string, unknown> | undefined;
  if (data) data.previous_status = data.current_status;
});
/** A receiver's Retry-After taken out of its answer on the way back: the service schedules as if it had none. */
export const retryAfterIgnored = receiverAnswer(({ status, headers: { 'retry-after': _dropped, ...headers } }) => ({ status, headers }));
