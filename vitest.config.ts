import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites start servers and child processes on their own ports; two workers match the 2 cores.
    maxWorkers: 2,
  },
});
