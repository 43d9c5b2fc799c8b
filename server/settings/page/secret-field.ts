// The secret field of the webhook form: a generated secret is shown once, with a copy button,
// while the form is open; the form forgets it when it closes.
import { $ } from './dom.ts';

const SECRET_BYTES = 32;

/** `whsec_` and 32 random bytes in base64, as Stripe and Standard Webhooks secrets look. */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/** Wires the Generate and Copy buttons. */
export function wireSecretButtons(): void {
  $('wh-secret-generate').addEventListener('click', () => {
    const input = $<HTMLInputElement>('wh-secret');
    input.value = generateSecret();
    // Shown while the form is open, so it can be copied.
    input.type = 'text';
    $('wh-secret-once').hidden = false;
    $('wh-secret-copied').textContent = '';
    input.select();
  });

  $('wh-secret-copy').addEventListener('click', () => {
    const copied = $('wh-secret-copied');
    navigator.clipboard.writeText($<HTMLInputElement>('wh-secret').value).then(
      () => (copied.textContent = 'Copied.'),
      () => (copied.textContent = 'Copying was refused by the browser: select the secret and copy it by hand.'),
    );
  });
}

export function forgetSecret(): void {
  const input = $<HTMLInputElement>('wh-secret');
  input.value = '';
  input.type = 'password';
  $('wh-secret-once').hidden = true;
}
