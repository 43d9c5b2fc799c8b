// Settings → Integrations, in the browser: webhooks listed, created, edited, enabled, disabled and
// deleted through the typed client (secmon-api), exactly as an integrator's code would call the
// API. The key stays in sessionStorage. Problems are shown with their title and detail, and each
// `errors` entry next to the field its pointer names.
import { createSecmonClient, isProblem, type SecmonClient } from '../../packages/api/src/client.ts';
import { EVENT_TYPES } from '../../packages/api/src/events.ts';
import type { components } from '../../packages/api/src/types.ts';
import { fieldErrors } from './field-errors.ts';
import { $, el } from './page/dom.ts';
import { clearFieldErrors, fieldLabel, problemText, showFieldErrors, showFormProblem, showProblem, showStatus } from './page/messages.ts';
import { forgetSecret, wireSecretButtons } from './page/secret-field.ts';
import { testEventControls } from './page/test-events.ts';

type Webhook = components['schemas']['Webhook'];
type WebhookUpdate = components['schemas']['WebhookUpdate'];

const KEY_STORAGE = 'secmon-api-key';
// A well-formed id no webhook has: deleting it tells a write key (404) from a read-only one (403)
// without changing anything.
const PROBE_ID = 'whk_00000000000000000000000000';
const PAGE_SIZE = 20;
const development = document.body.dataset.mode === 'development';

let client: SecmonClient | undefined;
let canWrite = false;
let nextCursor: string | null = null;
/** The webhook being edited and the ETag it was read with (sent as If-Match). */
let editing: { id: string; etag: string; hasSecret: boolean } | undefined;

// ---- key -------------------------------------------------------------------------------------

$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void connect($<HTMLInputElement>('api-key').value.trim());
});

$('forget-key').addEventListener('click', () => {
  sessionStorage.removeItem(KEY_STORAGE);
  client = undefined;
  $('workspace').hidden = true;
  $('key-form').hidden = false;
  $<HTMLInputElement>('api-key').value = '';
  $('api-key').focus();
});

async function connect(key: string): Promise<void> {
  const keyError = $('key-error');
  keyError.hidden = true;
  if (!key) return showKeyError('Enter an API key.');
  const candidate = createSecmonClient({ baseUrl: location.origin, apiKey: key });
  const probe = await candidate.DELETE('/v1/webhooks/{id}', { params: { path: { id: PROBE_ID } } });
  if (probe.response.status === 401) return showKeyError('This key is not accepted (401). Check that you copied all of it.');
  if (probe.response.status !== 403 && probe.response.status !== 404) return showKeyError(problemText(probe.error, probe.response));
  client = candidate;
  canWrite = probe.response.status === 404;
  sessionStorage.setItem(KEY_STORAGE, key);
  $('key-form').hidden = true;
  $('workspace').hidden = false;
  $('scope-note').textContent = canWrite
    ? 'This key can read and change webhooks.'
    : 'This key is read-only: it can list webhooks and see their deliveries, but not create, change, enable, disable or delete them.';
  $<HTMLButtonElement>('new-webhook').disabled = !canWrite;
  const reason = $('write-reason');
  reason.hidden = canWrite;
  reason.textContent = 'Changing webhooks needs a key with the write scope.';
  await reload();
}

function showKeyError(message: string): void {
  const keyError = $('key-error');
  keyError.textContent = message;
  keyError.hidden = false;
  $('api-key').setAttribute('aria-invalid', 'true');
}

// ---- list ------------------------------------------------------------------------------------

$('refresh').addEventListener('click', () => void reload());
$('more').addEventListener('click', () => void loadPage(nextCursor));

async function reload(): Promise<void> {
  $('webhooks').replaceChildren();
  await loadPage(null);
}

async function loadPage(cursor: string | null): Promise<void> {
  const { data, error, response } = await client!.GET('/v1/webhooks', {
    params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
  });
  if (!data) return showProblem(error, response);
  const list = $('webhooks');
  if (!cursor && data.data.length === 0) list.append(el('p', { className: 'hint', textContent: 'No webhooks yet.' }));
  for (const webhook of data.data) list.append(renderWebhook(webhook));
  nextCursor = data.next_cursor;
  $('more').hidden = nextCursor === null;
}

function renderWebhook(webhook: Webhook): HTMLElement {
  const item = el('article', { className: 'webhook', id: `webhook-${webhook.id}` });
  item.dataset.id = webhook.id;
  const heading = el('h3', { textContent: webhook.url });
  const details = el('dl');
  const row = (term: string, ...value: (Node | string)[]) => details.append(el('dt', { textContent: term }), el('dd', {}, ...value));
  row('Status', statusText(webhook));
  row('Id', el('code', { textContent: webhook.id }));
  row('Events', webhook.events.join(', '));
  row('Secret', webhook.has_secret ? 'has a secret (deliveries are signed)' : 'none (deliveries are unsigned)');
  if (webhook.description) row('Description', webhook.description);
  row('Last delivery', lastDeliveryNode(webhook));
  const actions = el('div');
  const action = (label: string, onClick: () => void, className = 'secondary') => {
    const button = el('button', { type: 'button', className, textContent: label, disabled: !canWrite });
    button.setAttribute('aria-label', `${label} ${webhook.url} (${webhook.id})`);
    if (!canWrite) button.title = 'Needs a key with the write scope';
    button.addEventListener('click', onClick);
    actions.append(button);
  };
  action('Edit', () => void openForm(webhook.id));
  action(webhook.enabled ? 'Disable' : 'Enable', () => void setEnabled(webhook.id, !webhook.enabled));
  action('Delete', () => void remove(webhook), 'danger');
  if (development)
    actions.append(
      testEventControls(webhook, { canWrite, client: client!, apiKey: () => sessionStorage.getItem(KEY_STORAGE), render: renderWebhook }),
    );
  item.append(heading, details, actions);
  return item;
}

function statusText(webhook: Webhook): string {
  if (webhook.enabled) return 'Enabled';
  if (webhook.disabled_reason === 'endpoint_gone') return 'Disabled by the service: the receiver answered 410 Gone';
  if (webhook.disabled_reason === 'failing') return 'Disabled by the service: deliveries kept failing';
  return 'Disabled';
}

function lastDeliveryNode(webhook: Webhook): Node {
  const last = webhook.last_delivery;
  if (!last) return document.createTextNode('none yet');
  const outcome = last.succeeded ? 'succeeded' : 'failed';
  const code = last.status_code === null ? 'no answer' : `HTTP ${last.status_code}`;
  const node = el('span', { className: last.succeeded ? 'ok' : 'bad', textContent: `${outcome}, ${code}, ` });
  node.append(el('time', { dateTime: last.attempted_at, textContent: new Date(last.attempted_at).toLocaleString() }));
  node.dataset.attemptedAt = last.attempted_at;
  return node;
}

// ---- create and edit ------------------------------------------------------------------------

const form = $<HTMLFormElement>('webhook-form');
const boxes = $('wh-event-boxes');
for (const type of EVENT_TYPES) {
  const box = el('input', { type: 'checkbox', name: 'events', value: type, id: `wh-event-${type}` });
  boxes.append(el('label', { htmlFor: box.id }, box, type));
}
const secretChoice = () =>
  (form.querySelector<HTMLInputElement>('input[name=secret-choice]:checked')?.value ?? 'none') as 'keep' | 'set' | 'none';
form.addEventListener('change', () => syncSecretField());
function syncSecretField(): void {
  const setting = secretChoice() === 'set';
  $<HTMLInputElement>('wh-secret').disabled = !setting;
  $<HTMLButtonElement>('wh-secret-generate').disabled = !setting;
}

wireSecretButtons();
$('new-webhook').addEventListener('click', () => void openForm());
$('cancel').addEventListener('click', () => closeForm());

async function openForm(id?: string): Promise<void> {
  clearFieldErrors();
  form.reset();
  forgetSecret();
  editing = undefined;
  if (id) {
    const { data, error, response } = await client!.GET('/v1/webhooks/{id}', { params: { path: { id } } });
    if (!data) return showProblem(error, response);
    editing = { id, etag: response.headers.get('etag') ?? '', hasSecret: data.has_secret };
    $<HTMLInputElement>('wh-url').value = data.url;
    $<HTMLInputElement>('wh-description').value = data.description;
    for (const box of boxes.querySelectorAll<HTMLInputElement>('input')) box.checked = data.events.includes(box.value as never);
  }
  $('form-heading').textContent = editing ? 'Edit webhook' : 'New webhook';
  $('wh-secret-keep-label').hidden = !editing?.hasSecret;
  $('wh-secret-set-text').textContent = editing?.hasSecret ? 'Replace the secret' : 'Set a secret';
  $('wh-secret-none-text').textContent = editing?.hasSecret ? 'Remove the secret (deliveries become unsigned)' : 'No secret';
  $<HTMLInputElement>(editing?.hasSecret ? 'wh-secret-keep' : 'wh-secret-set').checked = true;
  syncSecretField();
  form.hidden = false;
  $('wh-url').focus();
}

function closeForm(): void {
  forgetSecret();
  form.hidden = true;
  editing = undefined;
  $('new-webhook').focus();
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void save();
});

async function save(): Promise<void> {
  clearFieldErrors();
  const events = [...boxes.querySelectorAll<HTMLInputElement>('input:checked')].map((box) => box.value) as WebhookUpdate['events'];
  const description = $<HTMLInputElement>('wh-description').value.trim();
  const choice = secretChoice();
  const fields = { url: $<HTMLInputElement>('wh-url').value.trim(), events, description };
  const secret = choice === 'set' ? { secret: $<HTMLInputElement>('wh-secret').value } : {};
  // Omitted keeps the current secret; null removes it (the document's PUT rule for `secret`).
  const update: WebhookUpdate = { ...fields, ...secret, ...(choice === 'none' ? { secret: null } : {}), enabled: true };
  const body = editing ? update : { ...fields, ...secret };
  const schema = editing ? 'WebhookUpdate' : 'WebhookCreate';
  const invalid = fieldErrors(schema, body, fieldLabel);
  if (invalid.length > 0) {
    showFieldErrors(invalid);
    return showFormProblem('Some fields need a change: see the message under each.');
  }
  const rotated = editing?.hasSecret === true && choice === 'set';
  const result = editing
    ? await client!.PUT('/v1/webhooks/{id}', { params: { path: { id: editing.id }, header: { 'If-Match': editing.etag } }, body: update })
    : await client!.POST('/v1/webhooks', { body: { ...fields, ...secret } });
  if (result.error || !result.data) {
    if (result.response.status === 412) {
      return showFormProblem(
        'This webhook was changed elsewhere since you opened it (412 Precondition failed). Reload it to edit the current version.',
      );
    }
    // The server's own checks (say, an address it refuses) in its words; schema errors in ours.
    const reported = isProblem(result.error) ? (result.error.errors ?? []) : [];
    const ours = fieldErrors(schema, body, fieldLabel);
    showFieldErrors(reported.map((error) => ours.find((mine) => mine.pointer === error.pointer) ?? error));
    return showFormProblem(problemText(result.error, result.response));
  }
  const until = new Date(Date.now() + 24 * 60 * 60 * 1000).toLocaleString();
  showStatus(
    rotated
      ? `Saved the webhook for ${result.data.url} with its new secret. The previous secret stays valid for 24 hours (until about ${until}): each delivery carries a signature with both, so update your receiver before then.`
      : `${editing ? 'Saved' : 'Created'} the webhook for ${result.data.url}.`,
  );
  forgetSecret();
  form.hidden = true;
  editing = undefined;
  await reload();
}

// ---- enable, disable, delete --------------------------------------------------------------------

async function setEnabled(id: string, enabled: boolean): Promise<void> {
  const { data, error, response } = await client!.GET('/v1/webhooks/{id}', { params: { path: { id } } });
  if (!data) return showProblem(error, response);
  if (enabled && data.disabled_reason) {
    const why = data.disabled_reason === 'endpoint_gone' ? 'its receiver answered 410 Gone' : 'its deliveries kept failing';
    if (!confirm(`The service disabled this webhook because ${why}. Re-enable it? Fix the receiver first, or it will be disabled again.`))
      return;
  }
  // PUT replaces every writable field: send the current ones back, secret omitted (kept).
  const put = await client!.PUT('/v1/webhooks/{id}', {
    params: { path: { id }, header: { 'If-Match': response.headers.get('etag') ?? '' } },
    body: { url: data.url, events: data.events, description: data.description, enabled },
  });
  if (!put.data) return showProblem(put.error, put.response);
  $(`webhook-${id}`).replaceWith(renderWebhook(put.data));
  showStatus(`${enabled ? 'Enabled' : 'Disabled'} the webhook for ${data.url}.`);
}

async function remove(webhook: Webhook): Promise<void> {
  if (!confirm(`Delete the webhook for ${webhook.url}? Deliveries still pending for it are dropped.`)) return;
  const current = await client!.GET('/v1/webhooks/{id}', { params: { path: { id: webhook.id } } });
  if (!current.data) return showProblem(current.error, current.response);
  const { error, response } = await client!.DELETE('/v1/webhooks/{id}', {
    params: { path: { id: webhook.id }, header: { 'If-Match': current.response.headers.get('etag') ?? '' } },
  });
  if (!response.ok) return showProblem(error, response);
  $(`webhook-${webhook.id}`).remove();
  showStatus(`Deleted the webhook for ${webhook.url}.`);
}

const saved = sessionStorage.getItem(KEY_STORAGE);
if (saved) void connect(saved);
