// The vitest configuration `npm run contract` runs: only the kit's entry suite, one worker, and
// time-outs that allow for waiting out a target's rate limit.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../../..', import.meta.url)),
  test: {
    include: ['test/contract/kit/entry.kit.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    maxWorkers: 1,
  },
});
