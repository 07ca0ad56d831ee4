import type Database from 'better-sqlite3';
import type { Logger, Store } from '@licence/service';
import { activityDays, activityReads } from './activity.js';
import { authorTokens } from './author-tokens.js';
import { authorRecords } from './authors.js';
import { boundDomainStatements, domainBindings } from './bound-domains.js';
import { keyReads } from './key-reads.js';
import { keyWrites } from './key-writes.js';
import { openDatabase } from './open-database.js';
import { productRecords } from './products.js';
import { requestLogPurge } from './purge-request-log.js';
import { webhookEventPurge } from './purge-webhook-events.js';
import { requestLog } from './request-log.js';
import { webhookClaim } from './webhook-claim.js';
import { webhookDeliveries } from './webhook-deliveries.js';
import { webhookEndpoints } from './webhook-endpoints.js';
import { webhookFanout } from './webhook-fanout.js';
import { webhookEvents, webhookOutbox } from './webhook-outbox.js';
import { startWalCheckpointer } from './wal-checkpointer.js';
import type { WalCheckpointer } from './wal-checkpointer.js';
import { createWriteBatcher } from './write-batcher.js';
import type { WriteBatcher } from './write-batcher.js';

export interface SqliteStoreOptions {
  /** The database file; its folder is created when missing. `:memory:` works for experiments. */
  readonly file: string;
  /**
   * Migrations, open/close, a file mode set to 0600 and a WAL the purge could not truncate are
   * logged here. Nothing the store logs holds a key, a hash or an IP.
   */
  readonly logger?: Logger;
  /**
   * Checkpoint the WAL from a background thread instead of in the commits that serve requests
   * (wal-checkpointer.ts). Long-running servers want it; a CLI command that opens the store for
   * one statement does not need a thread. Ignored for `:memory:`. Default false.
   */
  readonly backgroundCheckpoints?: boolean;
}

/** /healthz's ping, and a close that first commits the writes already accepted. */
function lifecycle(
  db: Database.Database,
  writes: WriteBatcher,
  file: string,
  logger: Logger | undefined,
  checkpointer: WalCheckpointer | undefined,
): Pick<Store, 'ping' | 'close'> {
  const ping = db.prepare('SELECT 1');
  let closed = false;
  return {
    async ping() {
      ping.get();
    },
    async close() {
      if (closed) {
        return;
      }
      closed = true;
      // Writes already accepted are committed (or rejected) before the file is closed; the
      // thread's own connection closes first, so the last one to close checkpoints the WAL.
      writes.flush();
      await checkpointer?.stop();
      db.close();
      logger?.debug({ file }, 'sqlite store: closed');
    },
  };
}

/**
 * Opens (creating and migrating when needed) the embedded SQLite store
 * (CONTRIBUTING.md#architecture): one file, WAL, safe for several processes on the same machine.
 * The open is synchronous (a bad file stops the start at once, with one clear error); the methods
 * return promises to fit the Store port.
 */
export function openSqliteStore(options: SqliteStoreOptions): Store {
  const { file, logger } = options;
  const db = openDatabase(file, logger);
  const writes = createWriteBatcher(db);
  const domains = boundDomainStatements(db);
  const days = activityDays(db);
  const outbox = webhookOutbox(db);
  const fanOut = webhookFanout(db);
  const inMemory = file === ':memory:' || file === '';
  const checkpointer =
    options.backgroundCheckpoints === true && !inMemory ? startWalCheckpointer(db, file, logger) : undefined;
  return {
    ...keyReads(db, domains),
    ...keyWrites(db, domains, outbox),
    ...domainBindings(domains, writes, outbox),
    ...requestLog(db, writes, days),
    ...requestLogPurge(db, days, file, logger),
    ...activityReads(db),
    ...productRecords(db),
    ...authorRecords(db),
    ...authorTokens(db),
    ...webhookEndpoints(db, fanOut),
    ...webhookEvents(outbox, writes),
    ...webhookDeliveries(db, fanOut),
    ...webhookClaim(db, fanOut),
    ...webhookEventPurge(db, file, logger, fanOut),
    ...lifecycle(db, writes, file, logger, checkpointer),
  };
}
