import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { invalid, parsed, readServiceConfig, readVariable } from '@licence/service';
import type { Environment, Parsed, ServiceConfig } from '@licence/service';
import { DEFAULT_MAX_CONNECTIONS_PER_IP } from './connection-limits.js';

/**
 * The server's configuration, read from the environment names of docs/protocol.md#configuration
 * (fixed: scripts and docs rely on them). The variables every app shares are read by
 * @licence/service (`readServiceConfig`, the path the Lambda app takes too); this file adds the
 * server's own (HOST, PORT, LICENCE_DATA_DIR, LICENCE_MAX_CONNECTIONS,
 * LICENCE_MAX_CONNECTIONS_PER_IP, LICENCE_WORKERS) and its defaults: the SQLite file and the
 * embedded key in the data folder. `loadConfig` is pure: it is handed the environment and a working
 * directory and never touches the disk, so every rule is testable without a process.
 */

/** Where the signing seed comes from (docs/protocol.md#signature). */
export type SigningKeySource =
  /** `LICENCE_SIGNING_KEY` (the seed itself, already decoded) or `LICENCE_SIGNING_KEY_FILE`. */
  | NonNullable<ServiceConfig['signingKey']>
  /** Neither: the embedded default creates or reuses `<data dir>/signing-key`. */
  | { readonly kind: 'embedded'; readonly path: string };

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly file: string }
  /** DATABASE_URL: @licence/store-postgres, see open-runtime.ts. Holds the password: never print it. */
  | { readonly kind: 'postgres'; readonly url: string };

/**
 * The shared variables as `readServiceConfig` gives them (their meaning: @licence/service's
 * `ServiceConfig`), the database and the signing key with the server's defaults, and its own.
 */
export interface ServerConfig extends Omit<ServiceConfig, 'databaseUrl' | 'signingKey'> {
  readonly host: string;
  readonly port: number;
  /** Absolute. */
  readonly dataDir: string;
  readonly database: DatabaseConfig;
  readonly signingKey: SigningKeySource;
  /**
   * LICENCE_MAX_CONNECTIONS; undefined: the default, which depends on the process's open-file limit
   * and so is settled at start (connection-limits.ts), like a value above that limit.
   */
  readonly maxConnections: number | undefined;
  /** LICENCE_MAX_CONNECTIONS_PER_IP (default 100); not applied behind a proxy (TRUST_PROXY). */
  readonly maxConnectionsPerIp: number;
  /**
   * LICENCE_WORKERS (docs/protocol.md#configuration): how many worker processes `serve` runs; 1 (the
   * default) is one process, no cluster. `auto` is already resolved to the number of cores.
   */
  readonly workers: number;
}

export type ConfigResult = Parsed<ServerConfig>;

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;
export const DEFAULT_DATA_DIR = './data';
export const DATABASE_FILE_NAME = 'licence.db';
export const SIGNING_KEY_FILE_NAME = 'signing-key';

const PORT = /^[0-9]{1,5}$/;
// A connection count: a positive integer of at most 9 digits (far above any descriptor limit).
const COUNT = /^[0-9]{1,9}$/;
const WORKERS = /^[0-9]{1,2}$/;
/** LICENCE_WORKERS' ceiling: far above the cores of one machine, low enough that a typo stops the start. */
export const MAX_WORKERS = 64;
// A host to listen on: a name or an address (IPv6 without brackets, as `listen` takes it).
const LISTEN_HOST = /^[A-Za-z0-9._:-]+$/;

/**
 * Reads the configuration. Every bad value gives ONE fault naming the variable
 * (docs/protocol.md#configuration), in the order of the table there, and never the value of a
 * secret (LICENCE_SIGNING_KEY, LICENCE_ADMIN_TOKEN, DATABASE_URL's password).
 */
export function loadConfig(env: Environment, cwd: string, cores: number = availableParallelism()): ConfigResult {
  const read = readServiceConfig(env, cwd, {
    own: {
      host: parseListenHost(readVariable(env, 'HOST')),
      port: parsePort(readVariable(env, 'PORT')),
      dataDir: parseDataDir(readVariable(env, 'LICENCE_DATA_DIR'), cwd),
      maxConnections: parseCount('LICENCE_MAX_CONNECTIONS', readVariable(env, 'LICENCE_MAX_CONNECTIONS')),
      maxConnectionsPerIp: parseCount(
        'LICENCE_MAX_CONNECTIONS_PER_IP',
        readVariable(env, 'LICENCE_MAX_CONNECTIONS_PER_IP'),
      ),
      workers: parseWorkers(readVariable(env, 'LICENCE_WORKERS'), cores),
    },
  });
  if (!read.ok) return read;
  const { databaseUrl, signingKey, maxConnectionsPerIp, ...config } = read.value;
  return parsed({
    ...config,
    database:
      databaseUrl === undefined
        ? { kind: 'sqlite', file: resolve(config.dataDir, DATABASE_FILE_NAME) }
        : { kind: 'postgres', url: databaseUrl },
    signingKey: signingKey ?? { kind: 'embedded', path: resolve(config.dataDir, SIGNING_KEY_FILE_NAME) },
    maxConnectionsPerIp: maxConnectionsPerIp ?? DEFAULT_MAX_CONNECTIONS_PER_IP,
  });
}

/** HOST (default 127.0.0.1). */
function parseListenHost(raw: string | undefined): Parsed<string> {
  const host = raw ?? DEFAULT_HOST;
  if (LISTEN_HOST.test(host)) return parsed(host);
  return invalid('HOST', `expected a host name or IP address to listen on, got "${host}"`);
}

/** PORT (default 8080; 0 picks a free port). */
function parsePort(raw: string | undefined): Parsed<number> {
  if (raw === undefined) return parsed(DEFAULT_PORT);
  if (PORT.test(raw) && Number(raw) <= 65535) return parsed(Number(raw));
  return invalid('PORT', `expected an integer 0..65535, got "${raw}"`);
}

/** LICENCE_MAX_CONNECTIONS and LICENCE_MAX_CONNECTIONS_PER_IP: a positive integer, or undefined when unset. */
function parseCount(variable: string, raw: string | undefined): Parsed<number | undefined> {
  if (raw === undefined) return parsed(undefined);
  if (COUNT.test(raw) && Number(raw) >= 1) return parsed(Number(raw));
  return invalid(variable, `expected a positive integer (at most 9 digits), got "${raw}"`);
}

/** LICENCE_WORKERS (default 1): a whole number 1..64, or `auto` for one worker per core (`cores`). */
function parseWorkers(raw: string | undefined, cores: number): Parsed<number> {
  if (raw === undefined) return parsed(1);
  if (raw === 'auto') return parsed(Math.max(1, cores));
  if (WORKERS.test(raw) && Number(raw) >= 1 && Number(raw) <= MAX_WORKERS) return parsed(Number(raw));
  return invalid('LICENCE_WORKERS', `expected a whole number from 1 to ${MAX_WORKERS} or "auto", got "${raw}"`);
}

/** LICENCE_DATA_DIR (default ./data), absolute: as given when absolute, else against `cwd`, as LICENCE_SIGNING_KEY_FILE. */
function parseDataDir(raw: string | undefined, cwd: string): Parsed<string> {
  const dir = raw ?? DEFAULT_DATA_DIR;
  if (dir.includes('\0')) return invalid('LICENCE_DATA_DIR', 'holds a NUL character');
  return parsed(isAbsolute(dir) ? dir : resolve(cwd, dir));
}
