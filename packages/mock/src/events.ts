// The document's example webhook payloads, delivered the way the service delivers them: the exact
// bytes it would send, the same headers and signature (common/delivery-headers.ts), no redirects,
// the same 10 s deadline. Used by `npm run mock:events` and by anyone testing a receiver.
import { randomUUID } from 'node:crypto';
import type { OpenAPIV3_1 } from 'openapi-types';
import { listWebhookOperations, loadDocument, type OpenApiDocument, resolveRef } from 'secmon-api/src/document';
import { EVENT_TYPES, type EventType, isEventType } from 'secmon-api/src/events';
import { deliveryHeaders } from '../../../common/delivery-headers.ts';

/** The service gives a receiver this long to answer (the document's *Delivery and retries*). */
const DELIVERY_TIMEOUT_MS = 10_000;

export interface EventExample {
  eventType: EventType;
  name: string;
  /** The example body, serialised as the service serialises events (compact JSON). */
  body: string;
}

export interface DeliveryRequest extends EventExample {
  headers: Record<string, string>;
}

export interface BuildOptions {
  /** Event types to send; all six by default. */
  events?: readonly EventType[];
  /** A named example; every chosen event must have it. Default: each event's first example. */
  example?: string;
  secret?: string | null;
  /** The `X-Service-Webhook-Id`; the document's example id by default. */
  webhookId?: string;
  doc?: OpenApiDocument;
}

export class EventSelectionError extends Error {
  override name = 'EventSelectionError';
}

/** Every named example of every event type, in document order. */
export function eventExamples(doc: OpenApiDocument = loadDocument()): EventExample[] {
  return listWebhookOperations(doc).flatMap(({ path, operation }) => {
    if (!isEventType(path)) throw new Error(`webhook "${path}" is not an event type`);
    const body = resolveRef<OpenAPIV3_1.RequestBodyObject>(doc, operation.requestBody ?? { content: {} });
    const examples = body.content?.['application/json']?.examples ?? {};
    return Object.entries(examples).map(([name, example]) => ({
      eventType: path,
      name,
      body: JSON.stringify(resolveRef<OpenAPIV3_1.ExampleObject>(doc, example).value),
    }));
  });
}

/** The deliveries to make: one per chosen event, each with a fresh delivery id. */
export function buildDeliveries(options: BuildOptions = {}): DeliveryRequest[] {
  const doc = options.doc ?? loadDocument();
  const all = eventExamples(doc);
  const webhookId = options.webhookId ?? documentWebhookId(doc);
  return (options.events ?? EVENT_TYPES).map((eventType) => {
    const candidates = all.filter((example) => example.eventType === eventType);
    const chosen = options.example === undefined ? candidates[0] : candidates.find((example) => example.name === options.example);
    if (!chosen) {
      throw new EventSelectionError(
        `${eventType} has no example named "${options.example}"; it has: ${candidates.map((example) => example.name).join(', ')}`,
      );
    }
    const headers = deliveryHeaders({
      body: chosen.body,
      eventType,
      deliveryId: randomUUID(),
      webhookId,
      secret: options.secret,
    });
    return { ...chosen, headers };
  });
}

export type DeliveryResult = DeliveryRequest & { ms: number } & ({ status: number } | { error: string });

/** POSTs one delivery and reports what the receiver answered (never throws for network errors). */
export async function deliver(url: string, request: DeliveryRequest, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<DeliveryResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return { ...request, status: response.status, ms: elapsed() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { ...request, error: cause?.code ?? cause?.message ?? (error as Error).message, ms: elapsed() };
  }
}

/** Sends the deliveries one after the other, in order, as a receiver would see a quiet stream. */
export async function deliverAll(url: string, requests: readonly DeliveryRequest[]): Promise<DeliveryResult[]> {
  const results: DeliveryResult[] = [];
  for (const request of requests) results.push(await deliver(url, request));
  return results;
}

/** The service counts 2xx as delivered; anything else (3xx included) would be retried. */
export const delivered = (result: DeliveryResult) => 'status' in result && result.status >= 200 && result.status < 300;

// The id the document uses for X-Service-Webhook-Id, so the sender's default is valid by definition.
function documentWebhookId(doc: OpenApiDocument): string {
  const parameter = listWebhookOperations(doc)
    .flatMap(({ operation }) => operation.parameters ?? [])
    .map((parameter) => resolveRef<OpenAPIV3_1.ParameterObject>(doc, parameter))
    .find((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'x-service-webhook-id');
  if (typeof parameter?.example !== 'string') throw new Error('the document has no X-Service-Webhook-Id example');
  return parameter.example;
}
