// The Integrations page's field errors, generated from the document's constraints: each says
// which field, what is wrong and what is allowed, in words, with the numbers the document states.
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../packages/api/src/document.ts';
import { fieldErrors } from '../../server/settings/field-errors.ts';

const LABELS: Record<string, string> = { url: 'Receiver URL', events: 'Event types', description: 'Description', secret: 'Secret' };
const label = (field: string) => LABELS[field] ?? field;
const schemas = loadDocument().components!.schemas!;
const secretBounds = schemas.WebhookSecret as { minLength: number; maxLength: number };

describe('field errors of the webhook form', () => {
  it('say the field, what is wrong and what is allowed, with the document’s bounds', () => {
    expect(
      fieldErrors(
        'WebhookCreate',
        { url: 'ftp://files.example.com/hooks', events: [], secret: 'short', description: 'x'.repeat(5000) },
        label,
      ),
    ).toEqual([
      { pointer: '/body/url', message: 'Receiver URL must be a full web address starting with http:// or https:// and without spaces.' },
      { pointer: '/body/events', message: 'Event types: choose at least 1.' },
      { pointer: '/body/secret', message: `Secret is too short: 5 characters, at least ${secretBounds.minLength} needed.` },
      { pointer: '/body/description', message: 'Description is too long: 5000 characters, at most 4096 allowed.' },
    ]);
  });

  it('describe the nullable secret of an update by its string branch, and a missing field as required', () => {
    expect(
      fieldErrors('WebhookUpdate', { url: 'https://hooks.example.com/a', events: ['scan.completed'], secret: 'x'.repeat(300) }, label),
    ).toEqual([{ pointer: '/body/secret', message: `Secret is too long: 300 characters, at most ${secretBounds.maxLength} allowed.` }]);
    expect(fieldErrors('WebhookUpdate', { events: ['scan.completed'], secret: null }, label)).toEqual([
      { pointer: '/body/url', message: 'Receiver URL is required.' },
    ]);
    expect(fieldErrors('WebhookCreate', { url: 'https://hooks.example.com/a', events: ['scan.completed'] }, label)).toEqual([]);
  });

  it('contain no raw validator text', () => {
    const messages = fieldErrors(
      'WebhookCreate',
      { url: 'http://a b', events: ['scan.completed', 'scan.completed'], secret: '' },
      label,
    ).map((e) => e.message);
    expect(messages.join(' ')).not.toMatch(/must match|must NOT|pattern "|\^/);
    expect(messages).toEqual([
      'Receiver URL must be a full web address starting with http:// or https:// and without spaces.',
      'Event types: each one may be chosen only once.',
      `Secret is required (at least ${secretBounds.minLength} characters).`,
    ]);
  });
});
