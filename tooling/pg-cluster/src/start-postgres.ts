import { execFile, execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { findPostgresBinDir } from './find-postgres-bin.js';
import { freePort } from './free-port.js';

const run = promisify(execFile);

export interface StartPostgresOptions {
  /** The folder of initdb and pg_ctl; found with findPostgresBinDir when absent. */
  readonly binDir?: string;
  /**
   * Extra server settings (`-c name=value`). The defaults turn `fsync` off: the cluster is thrown
   * away after the tests, so crash safety of its files buys nothing and costs time. Pass
   * `{ fsync: 'on' }` (and `synchronous_commit`) to measure a durable server.
   */
  readonly settings?: Readonly<Record<string, string>>;
}

export interface PostgresCluster {
  /** URL of the database `licence`, created at start: `postgres://postgres@127.0.0.1:<port>/licence`. */
  readonly url: string;
  readonly port: number;
  /** The cluster's data folder (also holds its Unix socket). */
  readonly dataDir: string;
  /** Creates a new empty database (a fresh name when none is given) and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server at once (`-m immediate`, as a crash would), keeping its data. */
  halt(): Promise<void>;
  /** Starts the halted server again, on the same port and data. */
  resume(): Promise<void>;
  /** Stops the server (`-m immediate`) and removes its folder. A second call does nothing. */
  stop(): Promise<void>;
}

const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** Characters that survive pg_ctl's `-o` (it hands the options to a shell) without quoting. */
const SAFE_PATH = /^[A-Za-z0-9_./-]+$/;

let databases = 0;

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/**
 * PostgreSQL refuses to run as root, so as root every server binary runs as the `postgres` user
 * through runuser (initdb refuses to run as root); otherwise as the current user.
 */
function command(binDir: string, tool: string, args: readonly string[]): { file: string; args: string[] } {
  const path = join(binDir, tool);
  return isRoot()
    ? { file: 'runuser', args: ['-u', 'postgres', '--', path, ...args] }
    : { file: path, args: [...args] };
}

/**
 * A failed PostgreSQL tool as one line: its message, with what it wrote on stderr (why initdb or
 * pg_ctl failed). Not core's `errorMessage`: this package stands alone, without @licence/core.
 */
function toolFailure(error: unknown): string {
  if (error instanceof Error) {
    const stderr = 'stderr' in error && typeof error.stderr === 'string' ? error.stderr.trim() : '';
    return stderr === '' ? error.message : `${error.message.split('\n')[0] ?? ''}: ${stderr}`;
  }
  return String(error);
}

async function tool(binDir: string, name: string, args: readonly string[]): Promise<void> {
  const { file, args: argv } = command(binDir, name, args);
  try {
    await run(file, argv, { timeout: 60_000 });
  } catch (error) {
    throw new Error(`${name} failed: ${toolFailure(error)}`, { cause: error });
  }
}

async function postgresUserIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

async function logTail(file: string): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim().split('\n').slice(-5).join(' | ');
  } catch (error) {
    return `(no server log: ${toolFailure(error)})`;
  }
}

/**
 * A throwaway PostgreSQL cluster for tests: `initdb` in a fresh
 * temporary folder (`--auth=trust`, superuser `postgres`), a server listening on 127.0.0.1 only,
 * on a free port, its socket in its own folder, and a database `licence`. Takes about a second.
 * The caller stops it; a process that exits without doing so still stops it (an exit hook), so no
 * server outlives the tests.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresCluster> {
  const binDir = options.binDir ?? (await findPostgresBinDir());
  if (binDir === null) {
    throw new Error('PostgreSQL binaries not found (initdb, pg_ctl): install postgresql or set PG_BIN_DIR');
  }
  const root = await mkdtemp(join(tmpdir(), 'licence-pg-'));
  if (!SAFE_PATH.test(root)) {
    await rm(root, { recursive: true, force: true });
    throw new Error(`startPostgres: the temporary folder ${JSON.stringify(root)} holds characters pg_ctl cannot pass`);
  }
  const dataDir = join(root, 'data');
  const logFile = join(root, 'server.log');
  const settings: Record<string, string> = { fsync: 'off', ...options.settings };
  let port = 0;
  let running = false;
  let stopped = false;

  function stopSync(): void {
    // The exit hook: only synchronous calls work here.
    if (running) {
      const { file, args } = command(binDir ?? '', 'pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']);
      try {
        execFileSync(file, args, { stdio: 'ignore', timeout: 10_000 });
      } catch (error) {
        console.error(`startPostgres: could not stop the cluster in ${dataDir}: ${toolFailure(error)}`);
      }
    }
    rmSync(root, { recursive: true, force: true });
  }

  async function serverStart(): Promise<void> {
    const flags = [
      '-c listen_addresses=127.0.0.1',
      `-p ${port}`,
      `-k ${dataDir}`,
      ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
    ];
    await tool(binDir ?? '', 'pg_ctl', [
      '-D',
      dataDir,
      '-l',
      logFile,
      '-w',
      '-t',
      '30',
      '-o',
      flags.join(' '),
      'start',
    ]);
    running = true;
  }

  async function serverStop(): Promise<void> {
    if (running) {
      await tool(binDir ?? '', 'pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      running = false;
    }
  }

  async function createDatabase(name?: string): Promise<string> {
    databases += 1;
    const database = name ?? `licence_${process.pid}_${databases}`;
    if (!DATABASE_NAME.test(database)) {
      throw new Error(
        `createDatabase: expected a name matching ${DATABASE_NAME.source}, got ${JSON.stringify(database)}`,
      );
    }
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${database}`);
    } finally {
      await client.end();
    }
    return `postgres://postgres@127.0.0.1:${port}/${database}`;
  }

  process.once('exit', stopSync);
  try {
    if (isRoot()) {
      const { uid, gid } = await postgresUserIds();
      await chown(root, uid, gid);
    }
    // --no-sync: nothing of a throwaway cluster needs to reach the disk; C locale, UTF-8: the
    // same ordering on every machine.
    await tool(binDir, 'initdb', [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]);
    // The port was free a moment ago; another process may have taken it since: try a few.
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort();
      try {
        await serverStart();
        break;
      } catch (error) {
        if (attempt >= 3) {
          throw new Error(`${toolFailure(error)}; server log: ${await logTail(logFile)}`, { cause: error });
        }
      }
    }
    const url = await createDatabase('licence');
    return {
      url,
      port,
      dataDir,
      createDatabase,
      halt: serverStop,
      resume: serverStart,
      async stop() {
        if (stopped) {
          return;
        }
        stopped = true;
        process.removeListener('exit', stopSync);
        try {
          await serverStop();
        } finally {
          await rm(root, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    process.removeListener('exit', stopSync);
    stopSync();
    throw error;
  }
}
