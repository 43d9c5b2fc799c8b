// Entry point of the stateful mock (what `npm run mock -- --stateful` starts): the reference server
// assembled by ./deps.ts, run as a process like `npm start`. Takes the server's flags (`--port`, `--host`, ...).
import { configOrExit, runServer } from '../process.ts';
import { statefulMockConfig, statefulMockDeps } from './deps.ts';

const config = configOrExit(() => statefulMockConfig(process.env, process.argv.slice(2)));
await runServer(config, statefulMockDeps());
