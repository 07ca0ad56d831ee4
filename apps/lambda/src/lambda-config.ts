import { isAbsolute, resolve } from 'node:path';
import { decodeSeed, isPostgresUrl, MIN_ADMIN_TOKEN_LENGTH, parseLogLevel, parseTrustProxy } from '@licence/service';
import type { LogLevel, TrustProxy } from '@licence/service';

/**
 * The function's configuration, from the environment names of docs/protocol.md#configuration (the
 * Koa server's names; scripts and docs rely on them). What differs from the Koa server, and why:
 *
 * - `DATABASE_URL` is REQUIRED: a Lambda has no lasting disk for the embedded SQLite file.
 * - A signing key is REQUIRED (`LICENCE_SIGNING_KEY`, or `LICENCE_SIGNING_KEY_FILE`): there is no
 *   data folder to create one in, and a key made per container would sign with a different key
 *   in every container.
 * - `HOST`, `PORT` and `LICENCE_DATA_DIR` mean nothing to a function (the local runner reads
 *   HOST and PORT for its own listening address).
 *
 * Pure: handed the environment and a working directory, never touching the disk. Every bad value
 * gives ONE line naming the variable and never the value of a secret
 * (docs/protocol.md#configuration).
 */

export type SigningKeySource =
  /** `LICENCE_SIGNING_KEY`: the 32-byte seed itself, decoded. */
  | { readonly kind: 'inline'; readonly seed: Uint8Array }
  /** `LICENCE_SIGNING_KEY_FILE`: a file of the deployment package or a layer (`/opt/...`). */
  | { readonly kind: 'file'; readonly path: string };

export interface LambdaConfig {
  /** postgres://... Holds a password: never print it. */
  readonly databaseUrl: string;
  readonly signingKey: SigningKeySource;
  /** Undefined: the admin API is off (docs/protocol.md#administration). */
  readonly adminToken: string | undefined;
  readonly trustProxy: TrustProxy | undefined;
  readonly logLevel: LogLevel;
}

export type LambdaConfigResult =
  | { readonly ok: true; readonly config: LambdaConfig }
  | { readonly ok: false; readonly errors: readonly string[] };

export type Environment = Readonly<Record<string, string | undefined>>;

/** An empty variable counts as unset, as `FOO=` in a template means "no value". */
function read(env: Environment, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function loadLambdaConfig(env: Environment, cwd: string): LambdaConfigResult {
  const errors: string[] = [];

  let databaseUrl = '';
  const rawDatabaseUrl = read(env, 'DATABASE_URL');
  if (rawDatabaseUrl === undefined) {
    errors.push('DATABASE_URL: required on AWS Lambda (no lasting disk for the SQLite file); set a postgres:// URL');
  } else if (!isPostgresUrl(rawDatabaseUrl)) {
    errors.push('DATABASE_URL: expected a postgres:// or postgresql:// URL (value not shown)');
  } else {
    databaseUrl = rawDatabaseUrl;
  }

  let signingKey: SigningKeySource | undefined;
  const inlineKey = read(env, 'LICENCE_SIGNING_KEY');
  const keyFile = read(env, 'LICENCE_SIGNING_KEY_FILE');
  if (inlineKey !== undefined && keyFile !== undefined) {
    errors.push('LICENCE_SIGNING_KEY: set either LICENCE_SIGNING_KEY or LICENCE_SIGNING_KEY_FILE, not both');
  } else if (inlineKey !== undefined) {
    const seed = decodeSeed(inlineKey, 'LICENCE_SIGNING_KEY');
    if (typeof seed === 'string') errors.push(seed);
    else signingKey = { kind: 'inline', seed };
  } else if (keyFile !== undefined) {
    if (keyFile.includes('\0')) errors.push('LICENCE_SIGNING_KEY_FILE: holds a NUL character');
    else signingKey = { kind: 'file', path: isAbsolute(keyFile) ? keyFile : resolve(cwd, keyFile) };
  } else {
    errors.push(
      'LICENCE_SIGNING_KEY: required on AWS Lambda (no data folder to keep a generated one); set LICENCE_SIGNING_KEY (a base64 32-byte seed: `licence keygen` makes one) or LICENCE_SIGNING_KEY_FILE',
    );
  }

  const adminToken = read(env, 'LICENCE_ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < MIN_ADMIN_TOKEN_LENGTH) {
    errors.push(
      `LICENCE_ADMIN_TOKEN: must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters, got ${adminToken.length} (value not shown)`,
    );
  }

  const trust = parseTrustProxy(read(env, 'TRUST_PROXY'));
  if (!trust.ok) errors.push(trust.error);

  const level = parseLogLevel(read(env, 'LOG_LEVEL'));
  if (typeof level === 'object') errors.push(level.error);

  if (errors.length > 0 || signingKey === undefined || !trust.ok || typeof level === 'object')
    return { ok: false, errors };
  return { ok: true, config: { databaseUrl, signingKey, adminToken, trustProxy: trust.value, logLevel: level } };
}
