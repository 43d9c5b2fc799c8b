// The repository's test configuration with one more setup file, which charges each test file its CPU.
import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vitest/config';
import base from '../../vitest.config.ts';

export default mergeConfig(base, { test: { setupFiles: [fileURLToPath(new URL('./setup.ts', import.meta.url))] } });
