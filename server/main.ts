// Process entry point (`npm start`): configuration, start-up, and graceful shutdown on
// SIGTERM/SIGINT (finish in-flight requests, stop workers, close the database).
import { type Config, ConfigError, configWarnings, loadConfig } from './config.ts';
import { startServer } from './server.ts';
import { startupErrorMessage } from './startup-errors.ts';
import { DatabaseHeldError } from './store/sqlite/writer-lock.ts';

let config: Config;
try {
  config = loadConfig(process.env, process.argv.slice(2));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`secmon: invalid configuration: ${error.message}\n`);
  process.exit(2);
}

for (const warning of configWarnings(process.argv.slice(2))) process.stderr.write(`secmon: warning: ${warning}\n`);

if (config.usingDefaultKeys && !config.mock) {
  // Printed once, to the terminal rather than the structured log, which never carries keys.
  process.stderr.write(
    `secmon: development API keys (set SECMON_API_KEYS to replace them):\n` +
      config.apiKeys.map((key) => `  ${key.token}  scopes: ${[...key.scopes].join('+')}\n`).join(''),
  );
}

const server = await startServer(config).catch((error: unknown) => {
  const message = error instanceof DatabaseHeldError ? error.message : startupErrorMessage(error, config);
  if (message === undefined) throw error;
  process.stderr.write(`secmon: ${error instanceof DatabaseHeldError ? '' : 'cannot start: '}${message}\n`);
  process.exit(2);
});

let signals = 0;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (++signals > 1) process.exit(1);
    server.app.logger.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
