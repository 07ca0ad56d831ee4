import { readServiceConfig } from '@licence/service';
import type { Environment, Parsed, ServiceConfig } from '@licence/service';

/**
 * The function's configuration, from the environment names of docs/protocol.md#configuration, read
 * by @licence/service exactly as the Koa server reads them (`readServiceConfig`). What differs from
 * the Koa server, and why:
 *
 * - `DATABASE_URL` is REQUIRED: a Lambda has no lasting disk for the embedded SQLite file.
 * - A signing key is REQUIRED (`LICENCE_SIGNING_KEY`, or `LICENCE_SIGNING_KEY_FILE`): there is no
 *   data folder to create one in, and a key made per container would sign with a different key
 *   in every container.
 * - `HOST`, `PORT` and `LICENCE_DATA_DIR` mean nothing to a function (the local runner reads
 *   HOST and PORT for its own listening address).
 * - The scheduled `webhooks` function reads only what delivering needs (`loadWebhooksConfig`).
 *
 * Pure: handed the environment and a working directory, never touching the disk. Every bad value
 * gives ONE fault naming the variable and never the value of a secret
 * (docs/protocol.md#configuration).
 */

/** `LICENCE_SIGNING_KEY`, or `LICENCE_SIGNING_KEY_FILE`: a file of the deployment package or a layer (`/opt/...`). */
export type SigningKeySource = NonNullable<ServiceConfig['signingKey']>;

/**
 * The shared variables the API function reads: all but LICENCE_WEBHOOK_CONCURRENCY (it delivers
 * nothing: the scheduled function does) and whether LOG_LEVEL was set (the Koa CLI's question).
 */
const API_VARIABLES = [
  'databaseUrl',
  'signingKey',
  'adminToken',
  'trustProxy',
  'logLevel',
  'webhookAllowPrivate',
  'webhooksPerAuthor',
  'stagingHosts',
  'publicUrl',
  'buyerTransfersPer30Days',
] as const;

/**
 * The shared variables the API function reads, as @licence/service's `ServiceConfig` gives them
 * (their meaning is there), with the database and the signing key required.
 */
export interface LambdaConfig extends Pick<ServiceConfig, (typeof API_VARIABLES)[number]> {
  /** postgres://... Holds a password: never print it. */
  readonly databaseUrl: string;
  readonly signingKey: SigningKeySource;
}

export type LambdaConfigResult = Parsed<LambdaConfig>;

export function loadLambdaConfig(env: Environment, cwd: string): LambdaConfigResult {
  return readServiceConfig(env, cwd, {
    only: API_VARIABLES,
    required: {
      databaseUrl: 'required on AWS Lambda (no lasting disk for the SQLite file); set a postgres:// URL',
      signingKey:
        'required on AWS Lambda (no data folder to keep a generated one); set LICENCE_SIGNING_KEY (a base64 32-byte seed: `licence keygen` makes one) or LICENCE_SIGNING_KEY_FILE',
    },
  });
}

/**
 * The scheduled `webhooks` function's configuration (template.yaml, LicenceWebhooksFunction): the
 * database, the destination rule, the bound on attempts in flight and the log level, nothing more.
 * It is the one function that connects to URLs authors chose, so it is given neither the signing key nor the admin token (it
 * signs with each endpoint's own secret, read from the database): what it does not hold, a fault
 * in it cannot leak.
 */
const WEBHOOKS_VARIABLES = ['databaseUrl', 'webhookAllowPrivate', 'webhookConcurrency', 'logLevel'] as const;

export interface WebhooksConfig extends Pick<ServiceConfig, (typeof WEBHOOKS_VARIABLES)[number]> {
  /** postgres://... Holds a password: never print it. */
  readonly databaseUrl: string;
}

export function loadWebhooksConfig(env: Environment): Parsed<WebhooksConfig> {
  // No signing key is read: the working directory it would be resolved against plays no part.
  return readServiceConfig(env, '/', {
    only: WEBHOOKS_VARIABLES,
    required: { databaseUrl: 'required on AWS Lambda (the outbox to drain is in PostgreSQL); set a postgres:// URL' },
  });
}

/**
 * The level to log at before the configuration is read, or while it is bad: LOG_LEVEL as the
 * configuration reads it when good, else `info` (the configuration's fault then names the variable,
 * docs/protocol.md#configuration).
 */
export function startLogLevel(env: Environment): ServiceConfig['logLevel'] {
  const read = readServiceConfig(env, '/', { only: ['logLevel'] });
  return read.ok ? read.value.logLevel : 'info';
}
