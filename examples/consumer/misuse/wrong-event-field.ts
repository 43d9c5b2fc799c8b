// Reading another event type's field after narrowing on `event`.
import type { WebhookEvent } from 'secmon-api/webhooks';

export function scanOf(event: WebhookEvent): string {
  if (event.event !== 'finding.created') return '';
  return event.data.scan_id; // error: scan_id
}
