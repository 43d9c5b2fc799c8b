// The stateful mock (`npm run mock -- --stateful`) is the reference server assembled with these
// hooks: in memory, seeded with the document's named examples, any token a key with every scope,
// `Prefer` answered as the static mock answers it, and `POST /_mock/reset`. Development mode only.
import { loadDocument } from '../../packages/api/src/document.ts';
import type { AppDeps } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { preferredAnswers } from './prefer.ts';
import { MOCK_RESET_PATH, mockResetRouter } from './reset.ts';
import { seedFromExamples } from './seed.ts';

/** The flags the mock always runs with, after the caller's, so none of them can be overridden. */
const FIXED_FLAGS = ['--mode', 'development', '--db', ':memory:', '--cors-origins', '*'];

/** The server's configuration (environment and flags, such as `--port`) in the mock's fixed settings. */
export function statefulMockConfig(env: NodeJS.ProcessEnv, argv: readonly string[]): Config {
  return loadConfig(env, [...argv, ...FIXED_FLAGS]);
}

export function statefulMockDeps(): AppDeps {
  return {
    prepareStore: (store) => seedFromExamples(store, loadDocument()),
    anyToken: true,
    corsRequestHeaders: ['Prefer'],
    contractMiddleware: [preferredAnswers()],
    routers: [({ store }) => ({ path: MOCK_RESET_PATH, router: mockResetRouter(store) })],
  };
}
