// An integrator's webhook receiver: verify the timestamped signature over the raw bytes and get
// the typed event back, then handle each type; the switch is exhaustive over the six events.
import { createServer } from 'node:http';
import { type EventOf, verifyWebhook, type WebhookEvent, WebhookVerificationError } from 'secmon-api/webhooks';

export function describeEvent(event: WebhookEvent): string {
  switch (event.event) {
    case 'finding.created':
      return `new ${event.data.severity} finding ${event.data.finding_id} on ${event.data.device_id}`;
    case 'finding.resolved':
      return `finding ${event.data.finding_id} resolved (${event.data.resolution_reason})`;
    case 'compliance.changed':
      return `policy ${event.data.policy_id} is now ${event.data.current_status}`;
    case 'device.connected':
      return `${event.data.hostname} connected from ${event.data.ip_address}`;
    case 'device.disconnected':
      return `${event.data.hostname} disconnected: ${event.data.reason}`;
    case 'scan.completed':
      return `scan ${event.data.scan_id} ${event.data.outcome}`;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

export function startReceiver(secret: string, port: number) {
  return createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let event: WebhookEvent;
    try {
      event = verifyWebhook(Buffer.concat(chunks), req.headers, secret);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      res.writeHead(error.reason === 'invalid-event' ? 400 : 401).end(error.reason);
      return;
    }
    console.log(describeEvent(event));
    res.writeHead(204).end();
  }).listen(port, '127.0.0.1');
}

/**
 * What to do about a new finding. A newer v1 service may send a severity this package does not list
 * (the document's Versioning section): the type admits it, and the default branch handles it.
 */
export function urgencyOf(event: EventOf<'finding.created'>): string {
  switch (event.data.severity) {
    case 'critical':
    case 'high':
      return 'page the on-call engineer';
    case 'medium':
    case 'low':
    case 'info':
      return 'add to the weekly review';
    default:
      return `review by hand (severity ${event.data.severity} is newer than this receiver)`;
  }
}

export const newerSeverity: EventOf<'finding.created'>['data']['severity'] = 'urgent';
