// secmon-api in an integrator's TypeScript project: examples/consumer copied into a fresh project
// outside this repository, with the packed client and the repository's TypeScript installed, and a
// stock strict nodenext tsconfig. The examples compile; each file of misuse/ is rejected at its line.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../scripts/outsider.ts';
import { root } from '../../scripts/pipeline.ts';
import { installedBeforeAll, rootManifest } from './installed.ts';
import { expectRejectedAtMark } from './misuse.ts';

describe('secmon-api in a TypeScript project with a stock strict nodenext tsconfig', () => {
  const consumer = installedBeforeAll('typescript', (tarballs) => [tarballs.client], {
    copyOf: join(root, 'examples/consumer'),
    registry: [`typescript@${rootManifest.devDependencies.typescript}`, `@types/node@${rootManifest.devDependencies['@types/node']}`],
  });
  const misuseDir = join(root, 'examples/consumer/misuse');

  const tsc = (config: string) =>
    run(process.execPath, [join(consumer.dir, 'node_modules/typescript/bin/tsc'), '--pretty', 'false', '-p', config], {
      cwd: consumer.dir,
    });

  it('compiles the consumer examples to JavaScript with no error', async () => {
    const result = await tsc('tsconfig.json');
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
    expect(existsSync(join(consumer.dir, 'out/client.js'))).toBe(true);
  });

  const files = readdirSync(misuseDir).filter((file) => file.endsWith('.ts'));
  it('has a misuse file per kind of mistake', () => {
    expect(files.sort()).toEqual([
      'unset-secret.ts',
      'wrong-body-field.ts',
      'wrong-enum-value.ts',
      'wrong-event-field.ts',
      'wrong-path.ts',
    ]);
  });

  let misuse: ReturnType<typeof tsc> | undefined;
  it.each(files)('rejects %s at its marked line, naming the culprit', async (file) => {
    expectRejectedAtMark(misuseDir, file, await (misuse ??= tsc('misuse/tsconfig.json')));
  });
});
