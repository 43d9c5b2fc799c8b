// The reference server as a child process (the real entry point, server/main.ts, on the pinned
// Node), for tests that kill it: its URL is read from its own "server listening" log line.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../server/main.ts', import.meta.url));
// Exits the child when this process goes away, however it dies, so no server outlives its test.
const EXIT_WITH_PARENT = fileURLToPath(new URL('../packages/mock/src/exit-with-parent.ts', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Every stdout line so far (pino JSON). */
  lines: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function spawnServer(env: Record<string, string>, startTimeoutMs = 20_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', EXIT_WITH_PARENT, MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', SECMON_LOG_LEVEL: 'info', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      // The caller never gets a handle to a server that did not start, so it is killed here.
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${startTimeoutMs} ms: ${stderr}`));
    }, startTimeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening: ${stderr}`));
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        if (!line.includes('"server listening"')) continue;
        // Its own line (the pid is the child's), so the URL is the port this very process bound.
        const listening = JSON.parse(line) as { url: string; pid: number };
        if (listening.pid !== child.pid) continue;
        clearTimeout(timer);
        resolve(listening.url);
      }
    });
  });
  return {
    url,
    child,
    lines,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
