// Process entry point (`npm start`): configuration, the development keys printed once, and the
// server run as a process (server/process.ts: start-up errors, graceful shutdown).
import { configWarnings, loadConfig } from './config.ts';
import { configOrExit, runServer } from './process.ts';

const config = configOrExit(() => loadConfig(process.env, process.argv.slice(2)));

for (const warning of configWarnings(process.argv.slice(2))) process.stderr.write(`secmon: warning: ${warning}\n`);

if (config.usingDefaultKeys) {
  // Printed once, to the terminal rather than the structured log, which never carries keys.
  process.stderr.write(
    `secmon: development API keys (set SECMON_API_KEYS to replace them):\n` +
      config.apiKeys.map((key) => `  ${key.token}  scopes: ${[...key.scopes].join('+')}\n`).join(''),
  );
}

await runServer(config);
