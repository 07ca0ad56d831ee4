import { randomBytes as nodeRandomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { encodeBase64 } from '@licence/core';
import type { RandomBytes } from '@licence/core';
import { createNodeSigner, createService } from '@licence/service';
import type { Logger, Service } from '@licence/service';
import { describeDatabase, openPostgres } from '@licence/store-postgres';
import { decodeSeed } from '@licence/service';
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
 * a database that did not answer (it may on the next invocation). `lines` name the variable and
 * never a secret's value.
 */
export class RuntimeOpenError extends Error {
  override readonly name = 'RuntimeOpenError';
  constructor(
    readonly status: 500 | 503,
    readonly lines: readonly string[],
    options?: { readonly cause?: unknown },
  ) {
    super(lines.join('; '), options?.cause === undefined ? undefined : { cause: options.cause });
  }
}

export interface OpenLambdaRuntimeOptions {
  readonly logger: Logger;
  readonly now?: () => number;
  readonly random?: RandomBytes;
}

const randomBytes: RandomBytes = (length) => new Uint8Array(nodeRandomBytes(length));

/**
 * The signer (the seed read once), the PostgreSQL store and rate limiter on one small pool
 * (`openPostgres` applies pending migrations at open: a first invocation on an empty database
 * creates the schema), and the service over them.
 */
export async function openLambdaRuntime(
  config: LambdaConfig,
  options: OpenLambdaRuntimeOptions,
): Promise<LambdaRuntime> {
  const seed = config.signingKey.kind === 'inline' ? config.signingKey.seed : readSeedFile(config.signingKey.path);
  const { logger } = options;
  let backend: Awaited<ReturnType<typeof openPostgres>>;
  try {
    backend = await openPostgres({ connectionString: config.databaseUrl, logger, pool: { max: LAMBDA_POOL_MAX } });
  } catch (error) {
    // The store's messages name the database as postgres://host:port/db, never the user or
    // password of the URL (store-postgres README, "Secrets").
    const reason = error instanceof Error ? error.message : String(error);
    throw new RuntimeOpenError(503, [`DATABASE_URL: ${reason}`], { cause: error });
  }
  // node:crypto's signer; its public key comes with it (core's publicKeyOf is noble's, whose first
  // call builds precomputed tables: tens of milliseconds of a cold start for one log field).
  const signer = createNodeSigner(seed);
  const publicKey = encodeBase64(signer.publicKey);
  let service: Service;
  try {
    service = createService({
      store: backend.store,
      rateLimiter: backend.rateLimiter,
      clock: { now: options.now ?? Date.now },
      signer,
      logger,
      random: options.random ?? randomBytes,
      ...(config.trustProxy === undefined ? {} : { trustProxy: config.trustProxy }),
      ...(config.adminToken === undefined ? {} : { adminToken: config.adminToken }),
    });
  } catch (error) {
    // createService checks its options once; the config loader already did, so this is a bug.
    await backend.close();
    throw new RuntimeOpenError(500, [`createService: ${error instanceof Error ? error.message : String(error)}`], {
      cause: error,
    });
  }
  logger.info({ database: describeDatabase(config.databaseUrl), publicKey }, 'licence service ready');
  return { service, publicKey, close: () => backend.close() };
}

/** LICENCE_SIGNING_KEY_FILE's seed; errors name the variable and the path, never the content. */
function readSeedFile(path: string): Uint8Array {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'error';
    throw new RuntimeOpenError(500, [`LICENCE_SIGNING_KEY_FILE: cannot read ${path} (${code})`], { cause: error });
  }
  const seed = decodeSeed(text, 'LICENCE_SIGNING_KEY_FILE');
  if (typeof seed === 'string') throw new RuntimeOpenError(500, [`${seed} in ${path}`]);
  return seed;
}
