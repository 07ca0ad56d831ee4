import { existsSync } from 'node:fs';
import { encodeBase64, publicKeyOf } from '@licence/core';
import type { RandomBytes } from '@licence/core';
import { createKeyAdmin, createMemoryRateLimiter, createNodeSigner, createService } from '@licence/service';
import type { KeyAdmin, Logger, Service, Store } from '@licence/service';
import { openSqliteStore } from '@licence/store-sqlite';
import type { ServerConfig } from './config.js';
import { prepareData } from './embedded-default.js';
import { randomBytes } from './seed-file.js';
import { StartupError } from './startup-error.js';

/** The store and service the server and the CLI's admin commands run on. */
export interface Runtime {
  readonly service: Service;
  readonly store: Store;
  /** base64 of the signing key's public half: what products trust (DESIGN 5). */
  readonly publicKey: string;
  readonly createdDataDir: boolean;
  readonly createdSigningKey: boolean;
  close(): Promise<void>;
}

export interface OpenRuntimeOptions {
  readonly logger: Logger;
  readonly random?: RandomBytes;
  /** Moves time in tests (the purge, trial ends); defaults to the system clock. */
  readonly now?: () => number;
}

/** DESIGN 7 names DATABASE_URL; its store is issue 4's. Until then, say so in one line. */
export const POSTGRES_NOT_AVAILABLE =
  'DATABASE_URL: PostgreSQL support comes with @licence/store-postgres (issue 4); unset DATABASE_URL to use the embedded SQLite store';

/**
 * Serve mode: the embedded default creates what is missing (DESIGN 5), then opens the store and
 * builds the service.
 */
export function openRuntime(config: ServerConfig, options: OpenRuntimeOptions): Runtime {
  if (config.database.kind === 'postgres') throw new StartupError(POSTGRES_NOT_AVAILABLE);
  const random = options.random ?? randomBytes;
  const prepared = prepareData(config, random);
  for (const warning of prepared.warnings) options.logger.warn({}, warning);
  return build(config, options, prepared.seed, {
    createdDataDir: prepared.createdDataDir,
    createdSigningKey: prepared.createdSigningKey,
  });
}

/** What the CLI's admin commands run on: the service's key administration over the store. */
export interface AdminRuntime {
  readonly admin: KeyAdmin;
  close(): Promise<void>;
}

/**
 * Admin mode (the CLI's admin commands): the database must already exist, so a command typed in
 * the wrong folder says so instead of quietly creating an empty service there. No signing key is
 * needed: the admin operations sign nothing.
 */
export function openAdminRuntime(config: ServerConfig, options: OpenRuntimeOptions): AdminRuntime {
  if (config.database.kind === 'postgres') throw new StartupError(POSTGRES_NOT_AVAILABLE);
  if (!existsSync(config.database.file)) {
    throw new StartupError(
      `LICENCE_DATA_DIR: no database at ${config.database.file}; run \`licence serve\` there once first, or set LICENCE_DATA_DIR to the server's data folder`,
    );
  }
  const store = openStore(config.database.file, options.logger);
  const admin = createKeyAdmin({
    store,
    clock: { now: options.now ?? Date.now },
    random: options.random ?? randomBytes,
    logger: options.logger,
  });
  return { admin, close: () => store.close() };
}

function openStore(file: string, logger: Logger): Store {
  try {
    return openSqliteStore({ file, logger });
  } catch (error) {
    // The store's messages name the file and SQLite's reason; they hold no secret.
    throw new StartupError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

function build(
  config: ServerConfig,
  options: OpenRuntimeOptions,
  seed: Uint8Array,
  created: { readonly createdDataDir: boolean; readonly createdSigningKey: boolean },
): Runtime {
  if (config.database.kind !== 'sqlite') throw new StartupError(POSTGRES_NOT_AVAILABLE);
  const { logger } = options;
  const store = openStore(config.database.file, logger);
  const { adminToken } = config;
  const now = options.now ?? Date.now;
  let service: Service;
  try {
    service = createService({
      store,
      rateLimiter: createMemoryRateLimiter(),
      clock: { now },
      signer: createNodeSigner(seed),
      logger,
      random: options.random ?? randomBytes,
      ...(config.trustProxy === undefined ? {} : { trustProxy: config.trustProxy }),
      ...(adminToken === undefined ? {} : { adminToken }),
    });
  } catch (error) {
    // createService checks its options (a bad TRUST_PROXY entry): the start stops, the store closes.
    store.close().catch((closeError: unknown) => logger.warn({ err: String(closeError) }, 'closing the store failed'));
    throw new StartupError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  return {
    service,
    store,
    publicKey: encodeBase64(publicKeyOf(seed)),
    ...created,
    close: () => store.close(),
  };
}
