import { existsSync } from 'node:fs';
import { consoleAssets } from '@licence/console';
import { describeError, encodeBase64, errorMessage, publicKeyOf } from '@licence/core';
import type { RandomBytes } from '@licence/core';
import {
  createKeyAdmin,
  createMemoryRateLimiter,
  createNodeSigner,
  createService,
  randomBytes,
  serviceOptions,
} from '@licence/service';
import type { KeyAdmin, Logger, RateLimiter, Service, Store } from '@licence/service';
import { openPostgres } from '@licence/store-postgres';
import { openSqliteStore } from '@licence/store-sqlite';
import type { ServerConfig } from './config.js';
import { prepareData } from './embedded-default.js';
import { readSeedFile } from './seed-file.js';
import { StartupError } from './startup-error.js';

/** The store and service the server and the CLI's admin commands run on. */
export interface Runtime {
  readonly service: Service;
  readonly store: Store;
  /** base64 of the signing key's public half: what products trust (docs/protocol.md#signature). */
  readonly publicKey: string;
  readonly createdDataDir: boolean;
  readonly createdSigningKey: boolean;
  close(): Promise<void>;
}

export interface OpenRuntimeOptions {
  readonly logger: Logger;
  /**
   * Admin mode only: read the signing key too (docs/protocol.md#buyer-links: `key buyer-link` signs
   * the link with it), from where `serve` reads it; never created here.
   */
  readonly signer?: boolean;
  readonly random?: RandomBytes;
  /** Moves time in tests (the purge, trial ends); defaults to the system clock. */
  readonly now?: () => number;
  /**
   * Serve mode: the limiter to use instead of the backend's (a worker's on SQLite asks the primary,
   * worker-rate-limiter.ts); default the store's shared one on PostgreSQL, this process's memory on SQLite.
   */
  readonly rateLimiter?: RateLimiter;
}

/**
 * Serve mode: the embedded default creates what is missing (docs/protocol.md#signature), then opens
 * the store (and, on PostgreSQL, the shared rate limiter) and builds the service.
 */
export async function openRuntime(config: ServerConfig, options: OpenRuntimeOptions): Promise<Runtime> {
  const random = options.random ?? randomBytes;
  const prepared = prepareData(config, random);
  for (const warning of prepared.warnings) options.logger.warn({}, warning);
  // A server runs for days: its WAL checkpoints leave the request path (store-sqlite's
  // wal-checkpointer.ts); an admin command opens the store for a statement or two and needs no thread.
  const opened = await openBackend(config, options.logger, true);
  const backend = options.rateLimiter === undefined ? opened : { ...opened, rateLimiter: options.rateLimiter };
  return build(config, options, prepared.seed, backend, {
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
 * Admin mode (the CLI's admin commands): on SQLite the database must already exist, so a command
 * typed in the wrong folder says so instead of quietly creating an empty service there. On
 * PostgreSQL (DATABASE_URL) the database is the one named, migrated like at a server start. No
 * signing key is needed: the admin operations sign nothing.
 */
export async function openAdminRuntime(config: ServerConfig, options: OpenRuntimeOptions): Promise<AdminRuntime> {
  if (config.database.kind === 'sqlite' && !existsSync(config.database.file)) {
    throw new StartupError(
      `LICENCE_DATA_DIR: no database at ${config.database.file}; run \`pnpm licence serve\` there once first, or set LICENCE_DATA_DIR to the server's data folder`,
    );
  }
  const signer = options.signer === true ? createNodeSigner(existingSeed(config)) : undefined;
  const backend = await openBackend(config, options.logger, false);
  const admin = createKeyAdmin({
    store: backend.store,
    clock: { now: options.now ?? Date.now },
    random: options.random ?? randomBytes,
    logger: options.logger,
    // docs/protocol.md#webhooks: `licence webhook add http://127.0.0.1:...` for a local receiver.
    webhookAllowPrivate: config.webhookAllowPrivate,
    // docs/protocol.md#endpoints: the CLI's endpoints of an author count under its quota too.
    webhooksPerAuthor: config.webhooksPerAuthor,
    ...(signer === undefined ? {} : { signer }),
  });
  return { admin, close: () => backend.close() };
}

/**
 * The signing seed `serve` uses (docs/protocol.md#signature), read and never created: the embedded
 * key must already exist, or a link would be signed by a key no server holds.
 */
function existingSeed(config: ServerConfig): Uint8Array {
  const source = config.signingKey;
  if (source.kind === 'inline') return source.seed;
  if (source.kind === 'file') return readSeedFile(source.path, 'LICENCE_SIGNING_KEY_FILE').seed;
  if (!existsSync(source.path)) {
    throw new StartupError(
      `LICENCE_DATA_DIR: no signing key at ${source.path}; run \`pnpm licence serve\` there once first, or set LICENCE_SIGNING_KEY as the server does`,
    );
  }
  return readSeedFile(source.path, 'signing key file').seed;
}

/** The store and the rate limiter, and how to close both. */
interface Backend {
  readonly store: Store;
  readonly rateLimiter: RateLimiter;
  close(): Promise<void>;
}

/**
 * PostgreSQL (store and a rate limit shared by every process on it) when DATABASE_URL is set
 * (docs/protocol.md#configuration), the embedded SQLite file and a per-process limiter otherwise.
 */
async function openBackend(config: ServerConfig, logger: Logger, backgroundCheckpoints: boolean): Promise<Backend> {
  if (config.database.kind === 'postgres') {
    try {
      return await openPostgres({ connectionString: config.database.url, logger });
    } catch (error) {
      // The store's messages name the database as postgres://host:port/db, never the user or
      // password of the URL (store-postgres README, "Secrets").
      throw new StartupError(`DATABASE_URL: ${errorMessage(error)}`, { cause: error });
    }
  }
  const store = openStore(config.database.file, logger, backgroundCheckpoints);
  return { store, rateLimiter: createMemoryRateLimiter(), close: () => store.close() };
}

function openStore(file: string, logger: Logger, backgroundCheckpoints: boolean): Store {
  try {
    return openSqliteStore({ file, logger, backgroundCheckpoints });
  } catch (error) {
    // The store's messages name the file and SQLite's reason; they hold no secret.
    throw new StartupError(errorMessage(error), { cause: error });
  }
}

function build(
  config: ServerConfig,
  options: OpenRuntimeOptions,
  seed: Uint8Array,
  backend: Backend,
  created: { readonly createdDataDir: boolean; readonly createdSigningKey: boolean },
): Runtime {
  const { logger } = options;
  const { store, rateLimiter } = backend;
  let service: Service;
  try {
    // The settings as loadConfig read them (@licence/service's one mapping, as on Lambda); the
    // console's files from @licence/console (docs/protocol.md#console).
    const signer = createNodeSigner(seed);
    const ports = {
      store,
      rateLimiter,
      signer,
      logger,
      console: consoleAssets,
      now: options.now,
      random: options.random,
    };
    service = createService(serviceOptions(config, ports));
  } catch (error) {
    // createService checks its options (a bad TRUST_PROXY entry): the start stops, the store closes.
    backend
      .close()
      .catch((closeError: unknown) => logger.warn({ err: describeError(closeError) }, 'closing the store failed'));
    throw new StartupError(errorMessage(error), { cause: error });
  }
  return {
    service,
    store,
    publicKey: encodeBase64(publicKeyOf(seed)),
    ...created,
    close: () => backend.close(),
  };
}
