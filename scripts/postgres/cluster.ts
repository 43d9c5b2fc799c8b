// PostgreSQL clusters started from the distribution's server binaries (no Docker here): throw-away
// ones for tests and benchmarks, a persistent one for developers (scripts/postgres/local.ts). Only
// loopback TCP and a socket in the cluster's own folder are used, so trust authentication is safe.
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

export interface Cluster {
  /** The superuser's URL for the `postgres` database: postgres://secmon@127.0.0.1:PORT/postgres. */
  url: string;
  port: number;
  dataDir: string;
  /** CREATE DATABASE (a unique name by default); resolves with its URL. */
  createDatabase(name?: string): Promise<string>;
  /** `pg_ctl restart -m fast`: every connection is ended, the cluster is back on the same port when it resolves. */
  restart(): Promise<void>;
  /** Fast shutdown, then the temporary folder goes; idempotent. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** A folder that outlives the cluster (initdb only the first time); by default a temporary one that stop() removes. */
  dataDir?: string;
  /** By default a free loopback port. */
  port?: number;
  /** postgresql.conf settings; they override the harness's own. */
  settings?: Record<string, string>;
}

const SUPERUSER = 'secmon';
const DEBIAN_VERSIONS = '/usr/lib/postgresql';
// A port taken between freePort() and the server's bind is retried with another one.
const PORT_ATTEMPTS = 3;
const run = promisify(execFile);
// postgres refuses to run as root; as root, every server command runs as the distribution's postgres user.
const asRoot = process.getuid?.() === 0;

/** The highest Debian-installed version's binaries, else whatever `pg_config` names. */
export function postgresBinDir(): string | undefined {
  const versions = existsSync(DEBIAN_VERSIONS)
    ? readdirSync(DEBIAN_VERSIONS).filter((version) => existsSync(join(DEBIAN_VERSIONS, version, 'bin/initdb')))
    : [];
  const highest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (highest) return join(DEBIAN_VERSIONS, highest, 'bin');
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  return pgConfig.status === 0 ? pgConfig.stdout.trim() : undefined;
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const binDir = postgresBinDir();
  if (!binDir || !existsSync(join(binDir, 'initdb'))) {
    throw new Error("no PostgreSQL server binaries (initdb) found: install Debian's postgresql package");
  }
  const temporary = options.dataDir === undefined;
  const folder = temporary ? mkdtempSync(join(tmpdir(), 'secmon-pg-')) : undefined;
  const dataDir = options.dataDir ?? join(folder!, 'data');
  const asPostgres = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(binDir, tool), ...args]) : run(join(binDir, tool), args);
  const watchdog = startWatchdog(binDir, dataDir, folder);
  try {
    await giveToPostgres(folder ?? dataDir);
    if (!existsSync(join(dataDir, 'PG_VERSION'))) {
      // C collation sorts by bytes, as SQLite does, and needs no locale installed on the machine.
      const initdb = ['-D', dataDir, '--auth=trust', `--username=${SUPERUSER}`, '--encoding=UTF8', '--locale=C', '--no-sync'];
      await asPostgres('initdb', initdb).catch((error: unknown) => {
        throw new Error(`initdb failed in ${dataDir}:\n${outputOf(error)}`);
      });
    }
    // The log goes where the postgres user can write: the temporary folder, or the data folder itself.
    const log = join(folder ?? dataDir, 'postgres.log');
    const settings = {
      listen_addresses: '127.0.0.1',
      unix_socket_directories: folder ?? '',
      max_connections: '300', // tests run several server processes, each with its own pool
      // Nothing in a throw-away cluster needs to survive a crash of the machine.
      ...(temporary ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : {}),
      ...options.settings,
    };
    for (let attempt = 1; ; attempt++) {
      const port = options.port ?? (await freePort());
      // pg_ctl hands -o to a shell, hence the quoting.
      const serverOptions = Object.entries({ ...settings, port: String(port) })
        .map(([name, value]) => `-c ${shellQuoted(`${name}=${value}`)}`)
        .join(' ');
      try {
        await asPostgres('pg_ctl', ['start', '-w', '-D', dataDir, '-l', log, '-o', serverOptions]);
      } catch (error) {
        const tail = logTail(log);
        if (options.port === undefined && attempt < PORT_ATTEMPTS && /Address already in use/.test(tail)) continue;
        throw new Error(`PostgreSQL did not start on 127.0.0.1:${port}: ${outputOf(error)}\n${log}:\n${tail}`);
      }
      const url = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
      let stopping: Promise<void> | undefined;
      return {
        url,
        port,
        dataDir,
        createDatabase: (name) => createDatabase(url, name),
        restart: async () => void (await asPostgres('pg_ctl', ['restart', '-w', '-D', dataDir, '-m', 'fast', '-l', log])),
        stop: () =>
          (stopping ??= (async () => {
            stopWatchdog(watchdog);
            try {
              await asPostgres('pg_ctl', ['stop', '-D', dataDir, '-m', 'fast']);
            } finally {
              if (folder) rmSync(folder, { recursive: true, force: true });
            }
          })()),
      };
    }
  } catch (error) {
    stopWatchdog(watchdog);
    if (folder) rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

/** CREATE DATABASE on the server at `serverUrl` (a unique name by default); resolves with the new database's URL. */
export async function createDatabase(serverUrl: string, name = `secmon_${randomUUID().replaceAll('-', '')}`): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  return databaseUrl(serverUrl, name);
}

/** The URL of database `name` on the server at `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.href;
}

/**
 * A detached shell that outlives us: once our process is gone (even by SIGKILL, which runs no
 * handler) it stops the cluster and removes the temporary folder, so no server is left running.
 * A throw-away cluster is stopped at once; a persistent one cleanly, to spare it crash recovery.
 */
function startWatchdog(binDir: string, dataDir: string, folder: string | undefined): ChildProcess {
  const stop = [join(binDir, 'pg_ctl'), 'stop', '-D', dataDir, '-m', folder ? 'immediate' : 'fast'];
  const script = `pid=$1 folder=$2; shift 2
while kill -0 "$pid" 2>/dev/null; do sleep 1; done
"$@" >/dev/null 2>&1
[ -z "$folder" ] || rm -rf "$folder"`;
  const watchdog = spawn(
    'sh',
    [
      '-c',
      script,
      'secmon-pg-watchdog',
      String(process.pid),
      folder ?? '',
      ...(asRoot ? ['runuser', '-u', 'postgres', '--'] : []),
      ...stop,
    ],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  return watchdog;
}

function stopWatchdog(watchdog: ChildProcess): void {
  try {
    // detached made it a process group leader: the group includes its current `sleep`.
    process.kill(-watchdog.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** As root, the folder becomes the postgres user's; it must also be reachable through every folder above it. */
async function giveToPostgres(folder: string): Promise<void> {
  mkdirSync(folder, { recursive: true });
  if (!asRoot) return;
  await run('chown', ['postgres:', folder]);
  await run('runuser', ['-u', 'postgres', '--', 'test', '-w', folder]).catch(() => {
    throw new Error(
      `the postgres user cannot write ${folder}: every folder above it must be searchable by others (chmod o+x), or set TMPDIR`,
    );
  });
}

/** An ephemeral loopback port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const shellQuoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function logTail(log: string, lines = 20): string {
  return existsSync(log) ? readFileSync(log, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '(no log written)';
}

function outputOf(error: unknown): string {
  const { message, stdout, stderr } = error as { message: string; stdout?: string; stderr?: string };
  return `${stdout ?? ''}${stderr ?? ''}`.trim() || message;
}
