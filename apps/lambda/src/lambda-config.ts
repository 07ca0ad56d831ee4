import { combine, readSharedConfig, required } from '@licence/service';
import type { ConfiguredSigningKey, Environment, LogLevel, Parsed, TrustProxy } from '@licence/service';

/**
 * The function's configuration, from the environment names of docs/protocol.md#configuration, read
 * by @licence/service exactly as the Koa server reads them (`readSharedConfig`). What differs from
 * the Koa server, and why:
 *
 * - `DATABASE_URL` is REQUIRED: a Lambda has no lasting disk for the embedded SQLite file.
 * - A signing key is REQUIRED (`LICENCE_SIGNING_KEY`, or `LICENCE_SIGNING_KEY_FILE`): there is no
 *   data folder to create one in, and a key made per container would sign with a different key
 *   in every container.
 * - `HOST`, `PORT` and `LICENCE_DATA_DIR` mean nothing to a function (the local runner reads
 *   HOST and PORT for its own listening address).
 *
 * Pure: handed the environment and a working directory, never touching the disk. Every bad value
 * gives ONE fault naming the variable and never the value of a secret
 * (docs/protocol.md#configuration).
 */

export type { Environment } from '@licence/service';

/** `LICENCE_SIGNING_KEY`, or `LICENCE_SIGNING_KEY_FILE`: a file of the deployment package or a layer (`/opt/...`). */
export type SigningKeySource = ConfiguredSigningKey;

export interface LambdaConfig {
  /** postgres://... Holds a password: never print it. */
  readonly databaseUrl: string;
  readonly signingKey: SigningKeySource;
  /** Undefined: the admin API is off (docs/protocol.md#administration). */
  readonly adminToken: string | undefined;
  readonly trustProxy: TrustProxy | undefined;
  readonly logLevel: LogLevel;
}

export type LambdaConfigResult = Parsed<LambdaConfig>;

export function loadLambdaConfig(env: Environment, cwd: string): LambdaConfigResult {
  const shared = readSharedConfig(env, cwd);
  return combine<LambdaConfig>({
    ...shared,
    databaseUrl: required(
      shared.databaseUrl,
      'DATABASE_URL',
      'required on AWS Lambda (no lasting disk for the SQLite file); set a postgres:// URL',
    ),
    signingKey: required(
      shared.signingKey,
      'LICENCE_SIGNING_KEY',
      'required on AWS Lambda (no data folder to keep a generated one); set LICENCE_SIGNING_KEY (a base64 32-byte seed: `licence keygen` makes one) or LICENCE_SIGNING_KEY_FILE',
    ),
  });
}
