// What a webhook receiver needs, as the package exports it (`secmon-api/webhooks`): signature
// verification (verifyWebhook checks either scheme and returns the event) and typed, validated event
// parsing. The code lives in signing.ts, standard-webhooks.ts, verify-webhook.ts and events.ts.
export { SIGNATURE_HEADER, sign, verifySignature } from './signing.ts';
export {
  EVENT_TYPES,
  InvalidEventError,
  eventSchemaPointer,
  isEventType,
  parseEvent,
  validateEvent,
  type EventOf,
  type EventType,
  type WebhookEvent,
} from './events.ts';
export {
  WebhookVerificationError,
  verifyWebhook,
  type DeliveryHeaders,
  type VerificationFailure,
  type VerifyOptions,
} from './verify-webhook.ts';
export {
  DEFAULT_TOLERANCE_SECONDS,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  signStandard,
  standardWebhooksKey,
} from './standard-webhooks.ts';
