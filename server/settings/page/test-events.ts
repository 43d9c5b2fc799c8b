// Test events, in development only: the simulator sends one event of a type the webhook
// subscribes to, to that webhook only, and the row shows the delivery once it was attempted.
import type { SecmonClient } from '../../../packages/api/src/client.ts';
import type { components } from '../../../packages/api/src/types.ts';
import { $, el } from './dom.ts';
import { showProblem, showStatus } from './messages.ts';

type Webhook = components['schemas']['Webhook'];

const DELIVERY_POLL_MS = 500;
const DELIVERY_POLL_LIMIT_MS = 20_000;

export interface TestEventContext {
  canWrite: boolean;
  client: SecmonClient;
  /** The key the page is connected with, read when the event is sent (the simulator wants a write key). */
  apiKey(): string | null;
  /** Renders a webhook's row, to replace it once the delivery was attempted. */
  render(webhook: Webhook): HTMLElement;
}

export function testEventControls(webhook: Webhook, context: TestEventContext): HTMLElement {
  const wrapper = el('div');
  const select = el('select', { id: `test-event-${webhook.id}`, disabled: !context.canWrite });
  for (const type of webhook.events) select.append(el('option', { value: type, textContent: type }));
  const label = el('label', { htmlFor: select.id, textContent: 'Test event' });
  const button = el('button', { type: 'button', className: 'secondary', textContent: 'Send test event', disabled: !context.canWrite });
  button.setAttribute('aria-label', `Send test event to ${webhook.url} (${webhook.id})`);
  button.addEventListener('click', () => void sendTestEvent(webhook, select.value, context));
  wrapper.append(label, select, button);
  return wrapper;
}

async function sendTestEvent(webhook: Webhook, type: string, { client, apiKey, render }: TestEventContext): Promise<void> {
  const before = webhook.last_delivery?.attempted_at ?? null;
  const response = await fetch('/_simulator/events', {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey()}`, 'content-type': 'application/json' },
    // Only this webhook: another one subscribed to the type must not get the test event.
    body: JSON.stringify({ event: type, webhook_id: webhook.id }),
  });
  if (!response.ok) return showProblem(await response.json().catch(() => undefined), response);
  showStatus(`Sent a test ${type} event; waiting for the delivery to ${webhook.url}…`);
  for (let waited = 0; waited < DELIVERY_POLL_LIMIT_MS; waited += DELIVERY_POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, DELIVERY_POLL_MS));
    const { data } = await client.GET('/v1/webhooks/{id}', { params: { path: { id: webhook.id } } });
    if (data?.last_delivery && data.last_delivery.attempted_at !== before) {
      $(`webhook-${webhook.id}`).replaceWith(render(data));
      const last = data.last_delivery;
      return showStatus(`Test ${type} event: delivery ${last.succeeded ? 'succeeded' : 'failed'} (${last.status_code ?? 'no answer'}).`);
    }
  }
  showStatus(`No delivery attempt to ${webhook.url} within ${DELIVERY_POLL_LIMIT_MS / 1000} s; it is still queued.`);
}
