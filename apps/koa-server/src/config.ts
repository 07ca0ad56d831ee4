import { isAbsolute, resolve } from 'node:path';
import { decodeSeed, isPostgresUrl, MIN_ADMIN_TOKEN_LENGTH, parseLogLevel, parseTrustProxy } from '@licence/service';
import type { LogLevel, TrustProxy } from '@licence/service';

/**
 * The server's configuration, read from the environment names of docs/protocol.md#configuration
 * (fixed: scripts and docs rely on them). `loadConfig` is pure: it is handed the environment and a
 * working directory and never touches the disk, so every rule is testable without a process.
 */

/** Where the signing seed comes from (docs/protocol.md#signature). */
export type SigningKeySource =
  /** `LICENCE_SIGNING_KEY`: the 32-byte seed itself, already decoded. */
  | { readonly kind: 'inline'; readonly seed: Uint8Array }
  /** `LICENCE_SIGNING_KEY_FILE`: a file holding the base64 seed. */
  | { readonly kind: 'file'; readonly path: string }
  /** Neither: the embedded default creates or reuses `<data dir>/signing-key`. */
  | { readonly kind: 'embedded'; readonly path: string };

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly file: string }
  /** DATABASE_URL: @licence/store-postgres, see open-runtime.ts. Holds the password: never print it. */
  | { readonly kind: 'postgres'; readonly url: string };

export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  /** Absolute. */
  readonly dataDir: string;
  readonly database: DatabaseConfig;
  readonly signingKey: SigningKeySource;
  /** Undefined: the admin API is off (docs/protocol.md#administration). */
  readonly adminToken: string | undefined;
  readonly trustProxy: TrustProxy | undefined;
  readonly logLevel: LogLevel;
  /** True when LOG_LEVEL was given (the CLI's admin commands default to `warn` otherwise). */
  readonly logLevelSet: boolean;
}

export type ConfigResult =
  | { readonly ok: true; readonly config: ServerConfig }
  | { readonly ok: false; readonly errors: readonly string[] };

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;
export const DEFAULT_DATA_DIR = './data';
export const DATABASE_FILE_NAME = 'licence.db';
export const SIGNING_KEY_FILE_NAME = 'signing-key';

const PORT = /^[0-9]{1,5}$/;
// A host to listen on: a name or an address (IPv6 without brackets, as `listen` takes it).
const LISTEN_HOST = /^[A-Za-z0-9._:-]+$/;

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Reads the configuration. Every bad value gives ONE line naming the variable
 * (docs/protocol.md#configuration), and never the value of a secret (LICENCE_SIGNING_KEY,
 * LICENCE_ADMIN_TOKEN, DATABASE_URL's password). An empty variable counts as unset, as `FOO=` in a
 * compose file means "no value".
 */
export function loadConfig(env: Environment, cwd: string): ConfigResult {
  const errors: string[] = [];
  const get = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const host = get('HOST') ?? DEFAULT_HOST;
  if (!LISTEN_HOST.test(host)) {
    errors.push(`HOST: expected a host name or IP address to listen on, got "${host}"`);
  }

  let port = DEFAULT_PORT;
  const rawPort = get('PORT');
  if (rawPort !== undefined) {
    if (!PORT.test(rawPort) || Number(rawPort) > 65535) {
      errors.push(`PORT: expected an integer 0..65535, got "${rawPort}"`);
    } else {
      port = Number(rawPort);
    }
  }

  const rawDataDir = get('LICENCE_DATA_DIR') ?? DEFAULT_DATA_DIR;
  if (rawDataDir.includes('\0')) errors.push('LICENCE_DATA_DIR: holds a NUL character');
  const dataDir = isAbsolute(rawDataDir) ? rawDataDir : resolve(cwd, rawDataDir);

  let database: DatabaseConfig = { kind: 'sqlite', file: resolve(dataDir, DATABASE_FILE_NAME) };
  const databaseUrl = get('DATABASE_URL');
  if (databaseUrl !== undefined) {
    // Never echo the value: a database URL usually carries a password.
    if (!isPostgresUrl(databaseUrl)) {
      errors.push('DATABASE_URL: expected a postgres:// or postgresql:// URL (value not shown)');
    } else {
      database = { kind: 'postgres', url: databaseUrl };
    }
  }

  let signingKey: SigningKeySource = { kind: 'embedded', path: resolve(dataDir, SIGNING_KEY_FILE_NAME) };
  const inlineKey = get('LICENCE_SIGNING_KEY');
  const keyFile = get('LICENCE_SIGNING_KEY_FILE');
  if (inlineKey !== undefined && keyFile !== undefined) {
    errors.push('LICENCE_SIGNING_KEY: set either LICENCE_SIGNING_KEY or LICENCE_SIGNING_KEY_FILE, not both');
  } else if (inlineKey !== undefined) {
    const seed = decodeSeed(inlineKey, 'LICENCE_SIGNING_KEY');
    if (typeof seed === 'string') errors.push(seed);
    else signingKey = { kind: 'inline', seed };
  } else if (keyFile !== undefined) {
    if (keyFile.includes('\0')) errors.push('LICENCE_SIGNING_KEY_FILE: holds a NUL character');
    signingKey = { kind: 'file', path: isAbsolute(keyFile) ? keyFile : resolve(cwd, keyFile) };
  }

  const adminToken = get('LICENCE_ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < MIN_ADMIN_TOKEN_LENGTH) {
    errors.push(
      `LICENCE_ADMIN_TOKEN: must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters, got ${adminToken.length} (value not shown)`,
    );
  }

  const trust = parseTrustProxy(get('TRUST_PROXY'));
  if (!trust.ok) errors.push(trust.error);

  let logLevel: LogLevel = 'info';
  const rawLevel = get('LOG_LEVEL');
  const level = parseLogLevel(rawLevel);
  if (typeof level === 'string') logLevel = level;
  else errors.push(level.error);

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    config: {
      host,
      port,
      dataDir,
      database,
      signingKey,
      adminToken,
      trustProxy: trust.ok ? trust.value : undefined,
      logLevel,
      logLevelSet: rawLevel !== undefined,
    },
  };
}
