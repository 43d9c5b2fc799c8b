// The kit judges bodies by the Versioning section: strictly for an implementation of this exact
// version (an unknown field or enum value is a violation, named with the rule it breaks), and as a
// v1 client reads them with --allow-newer-fields (only what v1 may add is let through).

import { listMediaTypes, loadDocument } from 'secmon-api/src/document';
import { eventSchemaPointer } from 'secmon-api/src/events';
import { createSchemaValidator, schemaPointer } from 'secmon-api/src/schema-validator';
import { describe, expect, it } from 'vitest';
import { createKitContext } from '../src/kit/context.ts';
import { ajvDetails, sentBodyValidator } from '../src/kit/verify.ts';

const doc = loadDocument();
const strict = createSchemaValidator(doc);
const example = (pointerStart: string) =>
  listMediaTypes(doc).find((media) => media.schemaPointer.startsWith(pointerStart))!.examples[0]!.value as Record<string, any>;
const policy = example('#/paths/~1v1~1policies~1{id}/get/responses/200');
const event = example('#/webhooks/finding.created/');

const details = (validator: ReturnType<typeof createSchemaValidator>, pointer: string, value: unknown) => {
  const result = validator.validate(pointer, value);
  return result.valid ? [] : ajvDetails(result.errors, value);
};

describe('the kit and the Versioning section', () => {
  const newerPolicy = { ...policy, cost_centre: 'it-ops', severity: 'urgent' };
  const newerEvent = { ...event, data: { ...event.data, asset_tags: ['laptop'] } };

  it('by default reports an unknown field and an unknown enum value, naming the rule each breaks', () => {
    const found = details(strict, schemaPointer('Policy'), newerPolicy);
    expect(found).toContainEqual(expect.stringMatching(/^\/ must NOT have additional properties 'cost_centre'/));
    expect(found).toContainEqual(expect.stringMatching(/^\/severity must be equal to one of the allowed values/));
    expect(found).toContainEqual(
      expect.stringMatching(/^Versioning: an implementation of this exact version sends only the fields the document lists/),
    );
    expect(found).toContainEqual(
      expect.stringMatching(/^Versioning: an implementation of this exact version sends only the enum values the document lists/),
    );
    expect(details(strict, eventSchemaPointer('finding.created'), newerEvent).at(-1)).toMatch(/--allow-newer-fields/);
  });

  it('with --allow-newer-fields accepts them, and still refuses what no v1 may send', () => {
    const newer = sentBodyValidator(doc, strict, true);
    expect(newer.validate(schemaPointer('Policy'), newerPolicy)).toEqual({ valid: true });
    expect(newer.validate(eventSchemaPointer('finding.created'), newerEvent)).toEqual({ valid: true });
    expect(newer.validate(schemaPointer('Policy'), { ...newerPolicy, version: 'two' }).valid).toBe(false);
    const { severity: _dropped, ...noSeverity } = policy;
    expect(newer.validate(schemaPointer('Policy'), noSeverity).valid).toBe(false);
    expect(newer.validate(eventSchemaPointer('finding.created'), { ...event, event: 'finding.resolved' }).valid).toBe(false);
    expect(sentBodyValidator(doc, strict, false)).toBe(strict);
  });

  it('the kit context checks what the target sends with the strict view unless allowNewerFields is set', () => {
    const target = { baseUrl: 'http://127.0.0.1:9', apiKey: 'kit-key-123', profile: 'stateful' as const };
    expect(createKitContext(target).sentValidator.validate(schemaPointer('Policy'), newerPolicy).valid).toBe(false);
    expect(createKitContext({ ...target, allowNewerFields: true }).sentValidator.validate(schemaPointer('Policy'), newerPolicy)).toEqual({
      valid: true,
    });
  });
});
