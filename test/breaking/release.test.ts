// The gate itself (`npm run check:breaking`): the current bundle against the released v1 document.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listOperations, listWebhookOperations, loadDocument, type OpenApiDocument } from '../../lib/document.ts';
import { checkAgainstRelease, releasedDocumentPath } from '../../scripts/breaking/check.ts';
import { formatBreakingChanges } from '../../scripts/breaking/compare.ts';
import { root } from '../../scripts/pipeline.ts';

describe('check:breaking against openapi/releases/v1.0.0.json', () => {
  it('keeps the released v1 document with its 15 operations and 6 events', () => {
    const release = JSON.parse(readFileSync(releasedDocumentPath, 'utf8')) as OpenApiDocument;
    expect(release.info.version).toBe('1.0.0');
    expect(listOperations(release)).toHaveLength(15);
    expect(listWebhookOperations(release)).toHaveLength(6);
  });

  it('finds no breaking change in the current bundle', () => {
    expect(formatBreakingChanges(checkAgainstRelease())).toBe('');
  });

  it('names a removed enum value, with its JSON pointer', () => {
    const edited = loadDocument() as OpenApiDocument & { components: { schemas: Record<string, { enum: string[] }> } };
    edited.components.schemas.Severity!.enum = edited.components.schemas.Severity!.enum.filter((value) => value !== 'critical');
    const report = formatBreakingChanges(checkAgainstRelease(edited));
    expect(report).toBe('✗ enum-value-removed  #/components/schemas/Severity\n    the value "critical" was removed');
  });

  it('names a removed event type and a changed signature scheme', () => {
    const edited = loadDocument() as OpenApiDocument & { components: { parameters: Record<string, { schema: { pattern: string } }> } };
    delete edited.webhooks!['device.disconnected'];
    edited.components.parameters.SignatureHeader!.schema.pattern = '^sha512=[0-9a-f]{128}$';
    const rules = checkAgainstRelease(edited).map((change) => `${change.rule} ${change.pointer}`);
    expect(rules).toEqual(
      expect.arrayContaining([
        'event-type-removed #/webhooks/device.disconnected/post',
        'signature-scheme-changed #/components/parameters/SignatureHeader',
      ]),
    );
  });

  it('npm run check:breaking exits 0 and says so', () => {
    const result = spawnSync(process.execPath, ['scripts/breaking/check.ts'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('no breaking change');
    expect(result.status).toBe(0);
  });
});
