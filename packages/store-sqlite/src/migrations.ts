import type Database from 'better-sqlite3';
import { pendingMigrations, refuseNewerSchema } from '@licence/service';
import type { Logger } from '@licence/service';
import { truncateWal } from './wal-truncate.js';

/**
 * The schema, as an ordered list of steps. Step N (1-based) takes a file from `user_version`
 * N - 1 to N. A released step is never edited: a change is a new step appended at the end.
 *
 * What is kept is what docs/protocol.md#key-lifecycle and #privacy name, nothing more:
 * - products (id, author, name): the author is an id; a dev key opens every product whose
 *   `author` equals its own product's (docs/protocol.md#key-lifecycle);
 * - keys: SHA-256 of the normalised key (hex) and its last four characters, never the key;
 * - bound domains: the registrable domain, its binding position, first and last seen;
 * - the request log: time, key (null when unknown), host, client IP, the verdict's outcome; the
 *   purge deletes the entries past retention;
 * - activity_days: verdicts per product, UTC day and outcome (docs/protocol.md#activity);
 * - authors and their tokens: SHA-256 of each token, never the token (docs/protocol.md#authors);
 * - webhooks: endpoints and their secrets, the outbox of events (a body may hold a new key, the
 *   purge deletes it after 30 days), deliveries and their attempts (docs/protocol.md#webhooks);
 * - a product's staging patterns, a key's lineage and who ended it (docs/protocol.md#staging-hosts,
 *   #buyer-links).
 *
 * The same tables as store-postgres/src/migrations.ts, on purpose written twice: each in its own
 * SQL dialect (types, identities, WITHOUT ROWID).
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE products (
    id         TEXT PRIMARY KEY NOT NULL,
    author     TEXT NOT NULL,
    name       TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  -- A dev key's products: every product of its author (docs/protocol.md#key-lifecycle).
  CREATE INDEX products_author ON products (author, id);

  CREATE TABLE keys (
    -- AUTOINCREMENT: an id is never reused, so a log line or a replaced_by never points at a
    -- later key (keys are never deleted anyway).
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    hash        TEXT NOT NULL UNIQUE CHECK (length(hash) = 64),
    hint        TEXT NOT NULL,
    product_id  TEXT NOT NULL REFERENCES products (id),
    kind        TEXT NOT NULL CHECK (kind IN ('buyer', 'trial', 'dev')),
    status      TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'transfert', 'regeneration', 'revocation')),
    sites       INTEGER NOT NULL CHECK (sites >= 0),
    expires_at  INTEGER,
    ended_at    INTEGER,
    reason      TEXT,
    replaced_by INTEGER REFERENCES keys (id),
    created_at  INTEGER NOT NULL
  );
  CREATE INDEX keys_product ON keys (product_id, id);
  -- docs/protocol.md#key-lifecycle: one live development key per product. The index makes it hold
  -- across processes even if a caller skipped the check.
  CREATE UNIQUE INDEX keys_one_live_dev ON keys (product_id) WHERE kind = 'dev' AND status = 'active';

  CREATE TABLE bound_domains (
    key_id     INTEGER NOT NULL REFERENCES keys (id),
    domain     TEXT NOT NULL,
    -- Binding order (docs/protocol.md#verdict, rule 9, lists the domains in this order).
    position   INTEGER NOT NULL,
    first_seen INTEGER NOT NULL,
    last_seen  INTEGER NOT NULL,
    PRIMARY KEY (key_id, domain),
    UNIQUE (key_id, position)
  ) WITHOUT ROWID;

  CREATE TABLE request_log (
    id     INTEGER PRIMARY KEY,
    at     INTEGER NOT NULL,
    key_id INTEGER REFERENCES keys (id),
    host   TEXT NOT NULL,
    ip     TEXT
  );
  -- The purge (docs/protocol.md#privacy) only ever looks at entries that still hold an IP: a
  -- partial index keeps it small and the daily run cheap.
  CREATE INDEX request_log_ip_at ON request_log (at) WHERE ip IS NOT NULL;
  `,
  // 2: the purge deletes the entries past retention, IPs and all (docs/protocol.md#privacy), so it
  // walks every entry by time, not only those still holding an IP.
  `
  DROP INDEX request_log_ip_at;
  CREATE INDEX request_log_at ON request_log (at);
  `,
  // 3: authors and their tokens (docs/protocol.md#authors), and activity
  // (docs/protocol.md#activity): each log line records its verdict's outcome (NULL for the lines
  // logged before), and activity_days counts a product's verdicts per UTC day and outcome in the
  // write that logs them, so the console's activity is a read of at most 366 days x outcomes rows,
  // never a scan of the log. activity_days has no foreign key: it only summarises the log. A
  // product's author stays a plain id, joined by value: products made before their author keep
  // theirs, and the author made later owns them.
  `
  ALTER TABLE request_log ADD COLUMN outcome TEXT;

  CREATE TABLE activity_days (
    product_id TEXT NOT NULL,
    day        INTEGER NOT NULL,
    outcome    TEXT NOT NULL,
    count      INTEGER NOT NULL,
    PRIMARY KEY (product_id, day, outcome)
  ) WITHOUT ROWID;

  CREATE TABLE authors (
    id         TEXT PRIMARY KEY NOT NULL,
    name       TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE author_tokens (
    id           TEXT PRIMARY KEY NOT NULL,
    author_id    TEXT NOT NULL REFERENCES authors (id),
    -- SHA-256 of the token (hex), never the token.
    hash         TEXT NOT NULL UNIQUE CHECK (length(hash) = 64),
    label        TEXT,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER
  );
  -- An author's tokens, oldest first (GET /admin/authors/:id/tokens).
  CREATE INDEX author_tokens_author ON author_tokens (author_id, created_at, id);
  `,
  // 4: webhooks (docs/protocol.md#webhooks). Endpoints with their signing secrets (several during
  // a rotation); the outbox of events, written in the same transaction as the change that causes
  // each; one delivery per event and receiving endpoint, made in that transaction too; and the
  // attempts of each delivery. Deleting an endpoint deletes its secrets, deliveries and attempts
  // (ON DELETE CASCADE); purging an event deletes its deliveries and their attempts. An event's
  // product has no foreign key: like activity_days it names the product by value.
  `
  CREATE TABLE webhook_endpoints (
    id         TEXT PRIMARY KEY NOT NULL,
    -- NULL: every author's products (an operator's endpoint).
    author     TEXT REFERENCES authors (id),
    url        TEXT NOT NULL,
    -- A JSON array of event types, in WEBHOOK_EVENT_TYPES order (the fan-out reads it with json_each).
    events     TEXT NOT NULL CHECK (json_valid(events) AND json_type(events) = 'array'),
    created_at INTEGER NOT NULL
  );
  -- An author's endpoints, oldest first (GET /admin/webhooks with an author token).
  CREATE INDEX webhook_endpoints_author ON webhook_endpoints (author, created_at, id);

  CREATE TABLE webhook_secrets (
    -- Order of addition: the newest secret has the highest seq.
    seq         INTEGER PRIMARY KEY,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    secret      TEXT NOT NULL,
    -- NULL while the secret has no end; a rotation ends the old ones (they sign until then).
    ends_at     INTEGER
  );
  CREATE INDEX webhook_secrets_endpoint ON webhook_secrets (endpoint_id, seq);

  CREATE TABLE webhook_events (
    -- Event order, which delivery follows per endpoint; AUTOINCREMENT: never reused, even after
    -- the purge deleted the newest events.
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    id         TEXT NOT NULL UNIQUE,
    type       TEXT NOT NULL,
    product_id TEXT NOT NULL,
    at         INTEGER NOT NULL,
    body       TEXT NOT NULL,
    -- verdict.refused: once per key, host and UTC day. NULLs never collide.
    dedupe     TEXT UNIQUE
  );
  -- The purge walks events by time.
  CREATE INDEX webhook_events_at ON webhook_events (at);

  CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY NOT NULL,
    endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_seq       INTEGER NOT NULL REFERENCES webhook_events (seq) ON DELETE CASCADE,
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    -- When it is due; NULL unless pending.
    next_attempt_at INTEGER,
    -- The end of a deliverer's claim; NULL when none holds it.
    lease_until     INTEGER,
    UNIQUE (endpoint_id, event_seq)
  );
  -- The claim: an endpoint's pending deliveries in event order.
  CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, event_seq) WHERE status = 'pending';
  -- The claim: does an endpoint have a delivery claimed? Only claimed rows are in it.
  CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id, lease_until) WHERE lease_until IS NOT NULL;
  -- The purge (does an event still have a pending delivery?) and the cascade from an event.
  CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_seq, status);

  CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    -- 1 for the first attempt; a manual retry goes on counting.
    number      INTEGER NOT NULL,
    at          INTEGER NOT NULL,
    status      INTEGER,
    error       TEXT,
    duration_ms INTEGER NOT NULL,
    PRIMARY KEY (delivery_id, number)
  ) WITHOUT ROWID;
  `,
  // 5: staging patterns and buyer links (docs/protocol.md#staging-hosts, #buyer-links). A product
  // keeps its own staging patterns as a JSON array ('[]' for every existing product). A key keeps
  // its lineage, the first key of its chain of replacements, and who ended it by a replacement
  // (NULL for the keys ended before: unknown). The lineage is backfilled with each existing chain's
  // true first key, walked back along replaced_by, so that a key regenerated before the upgrade is
  // already in its chain's lineage; every key written from now on gets one in its own transaction.
  // The partial index serves the count of a lineage's buyer transfers (at most 3 in 30 days) and
  // holds only keys a buyer transferred.
  `
  ALTER TABLE products ADD COLUMN staging TEXT NOT NULL DEFAULT '[]'
    CHECK (json_valid(staging) AND json_type(staging) = 'array');

  ALTER TABLE keys ADD COLUMN lineage INTEGER REFERENCES keys (id);
  ALTER TABLE keys ADD COLUMN ended_by TEXT CHECK (ended_by IN ('operator', 'author', 'buyer'));

  WITH RECURSIVE chain (id, root) AS (
    SELECT id, id FROM keys WHERE id NOT IN (SELECT replaced_by FROM keys WHERE replaced_by IS NOT NULL)
    UNION ALL
    SELECT k.replaced_by, chain.root FROM chain JOIN keys k ON k.id = chain.id WHERE k.replaced_by IS NOT NULL
  )
  UPDATE keys SET lineage = chain.root FROM chain WHERE chain.id = keys.id;

  CREATE INDEX keys_buyer_transfers ON keys (lineage, ended_at) WHERE status = 'transfert' AND ended_by = 'buyer';
  `,
  // 6: the webhook fan-out leaves the verdict's transaction (docs/protocol.md#delivery-on-the-koa-server).
  // An event is still written by the change that causes it; its deliveries are made later, in one
  // statement for every event since the last fan-out (webhook-fanout.ts). The cursor starts at the
  // newest event: every older one was fanned out in its own transaction by the builds before.
  `
  CREATE TABLE webhook_fanout (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    -- The newest event whose deliveries are made.
    seq INTEGER NOT NULL
  );
  INSERT INTO webhook_fanout (id, seq) SELECT 1, coalesce(max(seq), 0) FROM webhook_events;
  `,
];

/**
 * A file at a version from 1 up to (not including) this one is rebuilt once with VACUUM before it
 * is migrated: the purge of those builds set `ip = NULL`, which left the old bytes in the file's
 * free space (docs/protocol.md#storage). VACUUM writes every live page anew and drops the rest.
 */
export const REBUILD_BELOW_VERSION = 2;

/** The schema version this build writes (SQLite's `user_version` after the last step). */
export const SCHEMA_VERSION = MIGRATIONS.length;

export function userVersion(db: Database.Database): number {
  const value: unknown = db.pragma('user_version', { simple: true });
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`user_version: expected an integer, got ${String(value)}`);
  }
  return value;
}

/**
 * Refuses a file from a newer build before anything writes to it (even the WAL switch changes
 * the file header), so an older build run by mistake leaves that file exactly as it was.
 */
export function refuseNewerFile(db: Database.Database, file: string): void {
  refuseNewerSchema(file, userVersion(db), SCHEMA_VERSION, '@licence/store-sqlite');
}

/**
 * The one-time rebuild of REBUILD_BELOW_VERSION. VACUUM cannot run inside a transaction, so it runs
 * before the migration's: a crash between the two leaves the old version, and the next open
 * rebuilds again (harmless). Two processes upgrading at once may both rebuild; the write lock
 * queues them. It holds the write lock for as long as it takes, once.
 */
function rebuildOnce(db: Database.Database, file: string, from: number, logger: Logger | undefined): void {
  const started = Date.now();
  db.exec('VACUUM');
  logger?.info({ file, from, ms: Date.now() - started }, 'sqlite store: file rebuilt once (VACUUM) before migrating');
}

/** All pending steps and the new `user_version`, in ONE immediate transaction; returns the old version. */
function runSteps(db: Database.Database, file: string): number {
  const run = db.transaction(() => {
    // Checked again under the write lock: another process may have migrated meanwhile.
    refuseNewerFile(db, file);
    const from = userVersion(db);
    for (const step of pendingMigrations(MIGRATIONS, from)) {
      db.exec(step.sql);
    }
    if (from !== SCHEMA_VERSION) {
      // user_version lives in the file header and is part of this transaction.
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }
    return from;
  });
  return run.immediate();
}

/**
 * Brings the file to SCHEMA_VERSION and returns the version it had. All pending steps and the new
 * `user_version` commit in ONE immediate transaction: a crash leaves the old version whole, and
 * two processes opening a new file at once migrate it once (the second waits on the lock, then
 * sees the new version). A file of an older build is first rebuilt once (REBUILD_BELOW_VERSION),
 * and its WAL truncated after, so no page image from before the rebuild is left on the disk. The
 * runner is the twin of store-postgres/src/migrate.ts, apart because better-sqlite3 is synchronous
 * and pg is not; the checks are shared (@licence/service).
 */
export function migrate(db: Database.Database, file: string, logger?: Logger): number {
  refuseNewerFile(db, file);
  const seen = userVersion(db);
  if (seen === SCHEMA_VERSION) {
    // The usual start: nothing to do, and no write lock taken, so opening never waits for (or
    // blocks) another process's writes.
    return SCHEMA_VERSION;
  }
  const rebuild = seen >= 1 && seen < REBUILD_BELOW_VERSION;
  if (rebuild) {
    rebuildOnce(db, file, seen, logger);
  }
  const from = runSteps(db, file);
  if (from !== SCHEMA_VERSION) {
    logger?.info({ from, to: SCHEMA_VERSION }, 'sqlite store: schema migrated');
  }
  if (rebuild) {
    truncateWal(db, file, logger);
  }
  return from;
}
