// A PostgreSQL cluster of Debian's `postgresql` package, started on loopback for tests,
// benchmarks and `npm run db:postgres`. Run as root, the server runs as the unprivileged
// `postgres` user (PostgreSQL refuses root). A throw-away cluster trades durability for speed
// (fsync off) and is stopped by a watchdog even when the process that started it is killed.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface Cluster {
  /** The superuser's URL, database `postgres`. */
  url: string;
  port: number;
  dataDir: string;
  /** Creates a database (a fresh unique name by default) and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server; a throw-away cluster's folder goes too. Idempotent. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** A folder kept between runs (created on first use); by default a temporary one, removed by stop(). */
  dataDir?: string;
  /** By default a free loopback port. */
  port?: number;
}

const SUPERUSER = 'secmon';

/** The newest installed server's bin folder, or undefined when PostgreSQL is not installed. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((version) => existsSync(join(root, version, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions[0]) return join(root, versions[0], 'bin');
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL program as the user that owns the cluster. */
function run(program: string, args: string[]): string {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install postgresql');
  const command = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] as const : [join(bin, program), args] as const;
  return execFileSync(command[0], command[1], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Makes `path` the cluster owner's and lets it reach the folder (a tmpdir may be root's). */
function ownFolder(path: string): void {
  if (!asRoot) return;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
  chownSync(path, uid, gid);
  chmodSync(path, 0o700);
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const throwAway = options.dataDir === undefined;
  const home = throwAway ? mkdtempSync(join(tmpdir(), 'secmon-pg-')) : options.dataDir!;
  mkdirSync(home, { recursive: true });
  ownFolder(home);
  const dataDir = join(home, 'data');
  const logFile = join(home, 'server.log');
  const port = options.port ?? (await freePort());
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    run('initdb', ['-D', dataDir, '--auth=trust', `--username=${SUPERUSER}`, '--encoding=UTF8', '--no-sync', '--no-instructions']);
  }
  const settings = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${home}`,
    // Several server processes, each with a pool, share one cluster in the tests.
    '-c max_connections=300',
    ...(throwAway ? ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'] : []),
  ];
  try {
    run('pg_ctl', ['-D', dataDir, '-w', '-t', '60', '-l', logFile, '-o', settings.join(' '), 'start']);
  } catch (error) {
    const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
    if (throwAway) rmSync(home, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${tail}`);
  }
  const watchdog = throwAway ? stopWhenGone(process.pid, dataDir, home) : undefined;
  const url = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    port,
    dataDir,
    createDatabase: (name) => createDatabase(url, name),
    async stop() {
      if (stopped) return;
      stopped = true;
      watchdog?.kill('SIGKILL');
      try {
        run('pg_ctl', ['-D', dataDir, '-w', '-m', 'fast', 'stop']);
      } finally {
        if (throwAway) rmSync(home, { recursive: true, force: true });
      }
    },
  };
}

let created = 0;

/** Creates a database (a fresh unique name by default) on the server of `adminUrl`; returns its URL. */
export async function createDatabase(adminUrl: string, name = `secmon_${process.pid}_${Date.now().toString(36)}_${created++}`): Promise<string> {
  const client = new pg.Client(adminUrl);
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A detached shell that stops the cluster and removes its folder once `pid` is gone: a test
 * worker killed with SIGKILL must not leave a server running.
 */
function stopWhenGone(pid: number, dataDir: string, home: string) {
  const pgCtl = join(postgresBinDir()!, 'pg_ctl');
  const stop = asRoot ? `runuser -u postgres -- ${pgCtl}` : pgCtl;
  const script = `while kill -0 ${pid} 2>/dev/null; do sleep 1; done; ${stop} -D '${dataDir}' -m immediate stop >/dev/null 2>&1; rm -rf '${home}'`;
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  child.unref();
  return child;
}
