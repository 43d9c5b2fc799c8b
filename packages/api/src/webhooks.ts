// What a webhook receiver needs, as the package exports it (`secmon-api/webhooks`): signature
// verification (verifyWebhook checks either scheme and returns the event) and typed, validated event
// parsing. The code lives in signing.ts, standard-webhooks.ts, verify-webhook.ts and events.ts.

export {
  EVENT_TYPES,
  type EventOf,
  type EventType,
  eventSchemaPointer,
  InvalidEventError,
  isEventType,
  parseEvent,
  validateEvent,
  type WebhookEvent,
} from './events.ts';
export { SIGNATURE_HEADER, sign, verifySignature } from './signing.ts';
export {
  DEFAULT_TOLERANCE_SECONDS,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  signStandard,
  standardWebhooksKey,
} from './standard-webhooks.ts';
export {
  type DeliveryHeaders,
  type VerificationFailure,
  type VerifyOptions,
  verifyWebhook,
  WebhookVerificationError,
} from './verify-webhook.ts';
