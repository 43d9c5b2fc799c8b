#!/usr/bin/env node
// `secmon-mock` (in this repository, `npm run mock`) — Prism on MOCK_PORT (default 4010) for frontend teams: named examples by default,
// `--dynamic` for schema-generated data with a fixed seed (`--seed` to change it), `--bare` for
// Prism without the contract shim (`--verbose` shows Prism's own log), `--stateful` for the reference server in memory seeded with the
// same examples (it remembers writes; `--reset` or a restart gives the seed back). Our life-cycle
// and request lines are structured (pino).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { HELP_OPTION, usageError } from '../../../common/cli.ts';
import { DEFAULT_SEED, exitWithParent, startMock } from './prism.ts';

const DEFAULT_PORT = 4010;
const COMMAND = 'secmon-mock';
const USAGE = `usage: ${COMMAND} [--port <port>] [--host <address>] [--dynamic [--seed <seed>]] [--bare] [--verbose]
       ${COMMAND} --stateful [--port <port>] [--host <address>]
       ${COMMAND} --reset [--port <port>] [--host <address>]

A mock of every SecMon API operation: Prism on the API's OpenAPI document, behind a shim that
answers errors with the contract's problem documents. Any bearer token is accepted; a
\`Prefer: code=404\` or \`Prefer: example=<name>\` header picks a documented answer.

  --port <port>     the port to listen on (default ${DEFAULT_PORT}, or MOCK_PORT; 0 picks a free one)
  --host <address>  the address to listen on (default 127.0.0.1, or MOCK_HOST)
  --dynamic         answers generated from the schemas instead of the documented examples
  --seed <seed>     the seed of the generated answers (default ${DEFAULT_SEED}), the same on every run
  --bare            Prism without the shim, with its own errors and log
  --verbose         Prism's own log lines beside the mock's
  --stateful        the reference server in memory, seeded with the examples, remembering writes
                    (ships with the API's repository, not this package: \`npm run mock -- --stateful\`)
  --reset           sends the stateful mock listening on --port back to its seed
  -h, --help        this help`;
const log = pino({ base: { service: COMMAND } });

function options() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      dynamic: { type: 'boolean', default: false },
      seed: { type: 'string', default: DEFAULT_SEED },
      bare: { type: 'boolean', default: false },
      stateful: { type: 'boolean', default: false },
      reset: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      ...HELP_OPTION,
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const portText = values.port ?? process.env.MOCK_PORT ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new Error(`MOCK_PORT (--port) must be 0-65535, got "${portText}"`);
  return {
    port,
    host: values.host ?? process.env.MOCK_HOST ?? '127.0.0.1',
    dynamic: values.dynamic,
    seed: values.seed,
    shim: !values.bare,
    stateful: values.stateful,
    reset: values.reset,
    verbose: values.verbose,
  };
}

let settings: ReturnType<typeof options>;
try {
  settings = options();
} catch (error) {
  process.stderr.write(usageError(COMMAND, (error as Error).message));
  process.exit(2);
}

if (settings.reset) await resetStateful(settings.port, settings.host);
else if (settings.stateful) runStateful(settings.port, settings.host);
else await runPrism();

/** `--reset`: the stateful mock already running on --port goes back to its seed (POST /_mock/reset). */
async function resetStateful(port: number, host: string): Promise<void> {
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/_mock/reset`;
  const status = await fetch(url, { method: 'POST' }).then(
    async (response) => {
      await response.body?.cancel();
      return response.status;
    },
    (error: unknown) => (error as Error).message,
  );
  if (status !== 204) {
    process.stderr.write(`secmon-mock: cannot reset ${url} (${status}): only a running stateful mock (--stateful) can be reset\n`);
    process.exit(1);
  }
  process.stdout.write(`secmon-mock: the stateful mock on port ${port} is back to its seed\n`);
}

/**
 * The reference server as the stateful mock (this repository's `server/stateful-mock/`): in memory, seeded
 * with the document's examples, any token a key with every scope, CORS open: a mock that remembers.
 */
function runStateful(port: number, host: string): void {
  const main = fileURLToPath(new URL('../../../server/stateful-mock/main.ts', import.meta.url));
  if (!existsSync(main)) {
    process.stderr.write(
      'secmon-mock: --stateful runs the reference server, which ships with the repository, not this package: clone it and run `npm run mock -- --stateful`\n',
    );
    process.exit(2);
  }
  log.info(
    { port, host, mode: 'stateful (reference server, in memory, seeded with the examples)', auth: 'any bearer token, every scope' },
    'starting the stateful mock',
  );
  const args = ['--import', exitWithParent, main, '--port', String(port), '--host', host];
  // Our end of its stdin closes however we die (even SIGKILL), and exit-with-parent then stops it.
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'inherit', 'inherit'] });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

async function runPrism(): Promise<void> {
  log.info({ ...settings, mode: settings.dynamic ? 'dynamic' : 'static examples' }, 'starting prism');
  const { port, host, dynamic, seed, shim, verbose } = settings;
  const mock = await startMock({
    port,
    host,
    dynamic,
    seed,
    shim,
    // Prism logs six lines per request and names its internal port; its lines are for --verbose.
    ...(verbose || !shim ? { onOutput: (line: string) => process.stdout.write(`${line}\n`) } : {}),
    onAnswer: (answer) => log.info(answer, `${answer.method} ${answer.path} → ${answer.status}`),
  }).catch((error: unknown) => {
    log.fatal({ err: error }, 'prism failed to start');
    process.exit(1);
  });
  log.info({ url: mock.url, startupMs: mock.startupMs, pid: mock.pid }, `mock ready on ${mock.url}`);

  let signals = 0;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (++signals > 1) process.exit(1);
      log.info({ signal }, 'stopping prism');
      void mock.stop().then(() => process.exit(0));
    });
  }
}
