import {
  combine,
  parseDatabaseUrl,
  parseBuyerTransfers,
  parseLogLevel,
  parsePublicUrl,
  parseStagingHosts,
  readSharedConfig,
  readVariable,
  readWebhookConfig,
  required,
} from '@licence/service';
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
 * - The scheduled `webhooks` function reads only what delivering needs (`loadWebhooksConfig`).
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
  /** LICENCE_WEBHOOK_ALLOW_PRIVATE=1 (docs/protocol.md#webhooks): http and private destinations allowed. */
  readonly webhookAllowPrivate: boolean;
  /** LICENCE_WEBHOOKS_PER_AUTHOR (docs/protocol.md#endpoints): the endpoints one author may have; default 10. */
  readonly webhooksPerAuthor: number;
  /** LICENCE_STAGING_HOSTS (docs/protocol.md#staging-hosts): the operator's staging host patterns; [] when unset. */
  readonly stagingHosts: readonly string[];
  /**
   * LICENCE_PUBLIC_URL (docs/protocol.md#buyer-links): where buyers reach the service (a custom
   * domain, or the API's URL with its stage); undefined: links are built on each admin request's Host.
   */
  readonly publicUrl: string | undefined;
  /** LICENCE_BUYER_TRANSFERS_PER_30_DAYS (docs/protocol.md#buyer-links); undefined: the default, 3. */
  readonly buyerTransfersPer30Days: number | undefined;
}

export type LambdaConfigResult = Parsed<LambdaConfig>;

export function loadLambdaConfig(env: Environment, cwd: string): LambdaConfigResult {
  const shared = readSharedConfig(env, cwd);
  // The same reading as the Koa server's; this function delivers nothing, so no concurrency.
  const webhooks = readWebhookConfig(env);
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
    webhookAllowPrivate: webhooks.webhookAllowPrivate,
    webhooksPerAuthor: webhooks.webhooksPerAuthor,
    stagingHosts: parseStagingHosts(readVariable(env, 'LICENCE_STAGING_HOSTS')),
    publicUrl: parsePublicUrl(readVariable(env, 'LICENCE_PUBLIC_URL')),
    buyerTransfersPer30Days: parseBuyerTransfers(readVariable(env, 'LICENCE_BUYER_TRANSFERS_PER_30_DAYS')),
  });
}

/**
 * The scheduled `webhooks` function's configuration (template.yaml, LicenceWebhooksFunction): the
 * database, the destination rule, the bound on attempts in flight and the log level, nothing more. It is the one function that
 * connects to URLs authors chose, so it is given neither the signing key nor the admin token (it
 * signs with each endpoint's own secret, read from the database): what it does not hold, a fault
 * in it cannot leak.
 */
export interface WebhooksConfig {
  /** postgres://... Holds a password: never print it. */
  readonly databaseUrl: string;
  readonly webhookAllowPrivate: boolean;
  /**
   * LICENCE_WEBHOOK_CONCURRENCY (docs/protocol.md#delivery-on-aws-lambda): the attempts a run has in
   * flight at most, as on the Koa server; default 32.
   */
  readonly webhookConcurrency: number;
  readonly logLevel: LogLevel;
}

export function loadWebhooksConfig(env: Environment): Parsed<WebhooksConfig> {
  const webhooks = readWebhookConfig(env);
  return combine<WebhooksConfig>({
    databaseUrl: required(
      parseDatabaseUrl(readVariable(env, 'DATABASE_URL')),
      'DATABASE_URL',
      'required on AWS Lambda (the outbox to drain is in PostgreSQL); set a postgres:// URL',
    ),
    webhookAllowPrivate: webhooks.webhookAllowPrivate,
    webhookConcurrency: webhooks.webhookConcurrency,
    logLevel: parseLogLevel(readVariable(env, 'LOG_LEVEL')),
  });
}
