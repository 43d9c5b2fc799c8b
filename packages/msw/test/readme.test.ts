// The README's Vitest example, run as a frontend team pastes it: its tests become this file's, with
// the package imports pointing at this repository's sources. Each must finish within 2 s, which a
// client waiting out a scenario's Retry-After would not.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, vi } from 'vitest';
import { manifestOf, PACKAGES } from '../../../scripts/packages.ts';
import { root } from '../../../scripts/pipeline.ts';
import { readmeExample } from '../../../test/packages/examples.ts';

const sources = Object.fromEntries(
  (['client', 'msw'] as const).map((name) => [manifestOf(name).name, join(root, PACKAGES[name].entries.index)]),
);
// Outside the repository only absolute imports resolve: ours name the sources, the rest what this file gets.
const example = readmeExample('msw', 'ts').replace(
  /from '([^']+)'/g,
  (_, specifier: string) => `from '${sources[specifier] ?? import.meta.resolve(specifier)}'`,
);
const dir = mkdtempSync(join(tmpdir(), 'secmon-msw-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'example.test.ts'), example);

vi.setConfig({ testTimeout: 2_000 });
await import(join(dir, 'example.test.ts'));
