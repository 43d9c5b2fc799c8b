// Problems and statuses on the page: a problem's title and detail in the page's banner or the
// form's, and each `errors` entry under the field its pointer names.
import { isProblem, type Problem } from '../../../packages/api/src/client.ts';
import { $ } from './dom.ts';

export function problemText(error: unknown, response: Response): string {
  return isProblem(error) ? `${error.title}: ${error.detail}` : `${response.status} ${response.statusText}`;
}

export function showProblem(error: unknown, response: Response): void {
  const box = $('problem');
  box.textContent = problemText(error, response);
  box.hidden = false;
  $('status').hidden = true;
}

export function showStatus(message: string): void {
  const box = $('status');
  box.textContent = message;
  box.hidden = false;
  $('problem').hidden = true;
}

export function showFormProblem(message: string): void {
  const box = $('form-problem');
  box.textContent = message;
  box.hidden = false;
}

/** Field of the form a problem's pointer names (`/body/url` → the URL input). */
const FIELDS: Record<string, string> = { url: 'wh-url', events: 'wh-events', description: 'wh-description', secret: 'wh-secret' };

/** A field's name as the form shows it: its label, or its fieldset's legend. */
export function fieldLabel(field: string): string {
  const id = FIELDS[field];
  const element = id ? $(id) : undefined;
  const text =
    element instanceof HTMLFieldSetElement
      ? element.querySelector('legend')?.textContent
      : document.querySelector(`label[for="${id}"]`)?.textContent;
  return (text ?? field).replace(/\s*\(optional\)$/, '').trim();
}

export function showFieldErrors(errors: NonNullable<Problem['errors']>): void {
  for (const { pointer, message } of errors) {
    const field = FIELDS[pointer.split('/')[2] ?? ''];
    if (!field) continue;
    const slot = $(`${field}-error`);
    slot.textContent = message;
    slot.hidden = false;
    $(field).setAttribute('aria-invalid', 'true');
  }
  $('webhook-form').querySelector<HTMLElement>('[aria-invalid=true]')?.focus();
}

export function clearFieldErrors(): void {
  for (const field of Object.values(FIELDS)) {
    $(`${field}-error`).hidden = true;
    $(field).removeAttribute('aria-invalid');
  }
  $('form-problem').hidden = true;
}
