// What a webhook receiver needs, as the package exports it (`secmon-api/webhooks`): signature
// verification and typed, validated event parsing. The code lives in signing.ts and events.ts.
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
