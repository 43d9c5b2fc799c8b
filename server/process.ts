// What every entry point of the server does as a process: a configuration error or a start-up
// failure is one line on stderr and exit 2; SIGTERM/SIGINT finish in-flight requests, stop the
// workers and close the database (a second signal exits at once).
import { type Config, ConfigError } from './config.ts';
import { type RunningServer, type ServerDeps, startServer } from './server.ts';
import { startupErrorMessage } from './startup-errors.ts';
import { DatabaseHeldError } from './store/sqlite/writer-lock.ts';

/** The configuration `load` builds, or exit 2 with the setting it names. */
export function configOrExit(load: () => Config): Config {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`secmon: invalid configuration: ${error.message}\n`);
    process.exit(2);
  }
}

/** Starts the server and stops it gracefully on a signal. */
export async function runServer(config: Config, deps: ServerDeps = {}): Promise<RunningServer> {
  const server = await startServer(config, deps).catch((error: unknown) => {
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
  return server;
}
