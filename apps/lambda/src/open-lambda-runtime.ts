import { consoleAssets } from '@licence/console';
import { encodeBase64, errorMessage } from '@licence/core';
import type { RandomBytes } from '@licence/core';
import { configErrorLine, createNodeSigner, createService, loadSeedFile, serviceOptions } from '@licence/service';
import type { Logger, Service } from '@licence/service';
import { describeDatabase, openPostgres } from '@licence/store-postgres';
import type { LambdaConfig } from './lambda-config.js';

/**
 * A Lambda container serves ONE request at a time (AWS runs more containers for more requests),
 * so its pool needs one connection for the request and one for the rate limiter's background
 * sweep. Many containers share the database's max_connections: a small pool per container is what
 * lets a burst of containers fit.
 */
export const LAMBDA_POOL_MAX = 2;

/** What a container keeps between invocations: the service and how to close its pool. */
export interface LambdaRuntime {
  readonly service: Service;
  /** base64 of the signing key's public half: what products trust (docs/protocol.md#signature). */
  readonly publicKey: string;
  close(): Promise<void>;
}

/**
 * Why the runtime could not open. `status` is what every invocation answers meanwhile: 500 for a
 * configuration the operator must fix (a missing or bad variable, an unreadable key file), 503 for
 * a database that did not answer (it may on the next invocation). `errors` name the variable and
 * never a secret's value.
 */
export class RuntimeOpenError extends Error {
  override readonly name = 'RuntimeOpenError';
  constructor(
    readonly status: 500 | 503,
    readonly errors: readonly { readonly variable: string; readonly message: string }[],
    options?: { readonly cause?: unknown },
  ) {
    super(errors.map(configErrorLine).join('; '), options?.cause === undefined ? undefined : { cause: options.cause });
  }
}

export interface OpenLambdaRuntimeOptions {
  readonly logger: Logger;
  readonly now?: () => number;
  readonly random?: RandomBytes;
}

/**
 * The signer (the seed read once), the PostgreSQL store and rate limiter on one small pool
 * (`openPostgres` applies pending migrations at open: a first invocation on an empty database
 * creates the schema), and the service over them.
 */
export async function openLambdaRuntime(
  config: LambdaConfig,
  options: OpenLambdaRuntimeOptions,
): Promise<LambdaRuntime> {
  const seed = config.signingKey.kind === 'inline' ? config.signingKey.seed : seedOfFile(config.signingKey.path);
  const { logger } = options;
  let backend: Awaited<ReturnType<typeof openPostgres>>;
  try {
    backend = await openPostgres({ connectionString: config.databaseUrl, logger, pool: { max: LAMBDA_POOL_MAX } });
  } catch (error) {
    // The store's messages name the database as postgres://host:port/db, never the user or
    // password of the URL (store-postgres README, "Secrets").
    throw new RuntimeOpenError(503, [{ variable: 'DATABASE_URL', message: errorMessage(error) }], { cause: error });
  }
  // node:crypto's signer; its public key comes with it (core's publicKeyOf is noble's, whose first
  // call builds precomputed tables: tens of milliseconds of a cold start for one log field).
  const signer = createNodeSigner(seed);
  const publicKey = encodeBase64(signer.publicKey);
  let service: Service;
  try {
    // The settings as the config loader read them (@licence/service's one mapping, as on the Koa
    // server); the console's files are in the bundle (scripts/bundle.mjs, docs/protocol.md#console).
    const { store, rateLimiter } = backend;
    const { now, random } = options;
    service = createService(
      serviceOptions(config, { store, rateLimiter, signer, logger, console: consoleAssets, now, random }),
    );
  } catch (error) {
    // createService checks its options once; the config loader already did, so this is a bug, not
    // a configuration to fix: the invocation answers a 500 and logs it as the fault it is.
    await backend.close();
    throw new Error(`createService: ${errorMessage(error)}`, { cause: error });
  }
  logger.info(
    { database: describeDatabase(config.databaseUrl), publicKey, stagingHosts: config.stagingHosts.length },
    'licence service ready',
  );
  return { service, publicKey, close: () => backend.close() };
}

/** One error line per fault, with its variable as a field for a log filter. */
export function logRuntimeOpenError(logger: Logger, error: RuntimeOpenError, requestId: string | undefined): void {
  for (const fault of error.errors) {
    logger.error({ requestId, status: error.status, variable: fault.variable }, configErrorLine(fault));
  }
}

/** LICENCE_SIGNING_KEY_FILE's seed; faults name the variable and the path, never the content. */
function seedOfFile(path: string): Uint8Array {
  const seed = loadSeedFile(path, 'LICENCE_SIGNING_KEY_FILE');
  if (!seed.ok) throw new RuntimeOpenError(500, seed.errors);
  return seed.value;
}
