// The document as another team's generator reads it: @hey-api/openapi-ts (types and zod schemas)
// from the bundle, where a union without per-branch types once made `ip_address` `unknown | unknown`. Each
// anyOf/oneOf branch carries its own `type`, so the generated type and validator are strings.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMediaTypes, loadDocument } from '../../packages/api/src/document.ts';
import { committed, generatorBin } from '../../scripts/pipeline.ts';

// Beside the generator, so the generated `import { z } from 'zod'` resolves to the zod it targets.
const cache = generatorBin('.cache');
mkdirSync(cache, { recursive: true });
const out = mkdtempSync(join(cache, 'hey-api-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const connected = listMediaTypes(loadDocument()).find((media) => media.schemaPointer.startsWith('#/webhooks/device.connected/'))!
  .examples[0]!.value as { data: Record<string, unknown> };

describe('@hey-api/openapi-ts on the bundled document', () => {
  let zod: Record<string, { safeParse(value: unknown): { success: boolean } }>;
  beforeAll(async () => {
    execFileSync(
      process.execPath,
      [
        generatorBin('@hey-api/openapi-ts/bin/run.js'),
        '-i',
        committed.json,
        '-o',
        out,
        '-p',
        '@hey-api/typescript',
        'zod',
        '--silent',
        '--no-log-file',
      ],
      { stdio: 'pipe' },
    );
    zod = await import(join(out, 'zod.gen.ts'));
  }, 60_000);

  it('types ip_address as a string', () => {
    const types = readFileSync(join(out, 'types.gen.ts'), 'utf8');
    expect(types).toMatch(/\bip_address: string(?: \| string)?;/);
  });

  it('its zod schema accepts the example and both address families, and refuses a number', () => {
    const event = zod.zDeviceConnectedEvent!;
    const withAddress = (ip_address: unknown) => ({ ...connected, data: { ...connected.data, ip_address } });
    expect(event.safeParse(connected).success).toBe(true);
    expect(event.safeParse(withAddress('2001:db8::7')).success).toBe(true);
    expect(event.safeParse(withAddress(12345)).success).toBe(false);
    expect(event.safeParse(withAddress('not an address')).success).toBe(false);
  });
});
