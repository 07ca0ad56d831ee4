import type { PoolClient } from 'pg';
import type { Logger } from '@licence/service';

/**
 * The schema, as an ordered list of steps; step N (1-based) is version N of the table
 * `schema_migrations`. A released step is never edited: a change is a new step at the end.
 * The same schema ideas as the SQLite store (docs/protocol.md#key-lifecycle, #privacy, nothing
 * more): products with their author; keys as SHA-256 + hint, never the key; bound domains with
 * position, first and last seen; the request log (time, key, host, client IP erased by the purge).
 * Times are whole seconds (`bigint`).
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE products (
    id         text PRIMARY KEY,
    author     text NOT NULL,
    name       text NOT NULL,
    created_at bigint NOT NULL
  );
  -- A dev key's products: every product of its author (docs/protocol.md#key-lifecycle).
  CREATE INDEX products_author ON products (author, id);

  CREATE TABLE keys (
    -- An identity is never reused, so a log line or a replaced_by never points at a later key.
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hash        text NOT NULL UNIQUE CHECK (length(hash) = 64),
    hint        text NOT NULL,
    product_id  text NOT NULL REFERENCES products (id),
    kind        text NOT NULL CHECK (kind IN ('buyer', 'trial', 'dev')),
    status      text NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'transfert', 'regeneration', 'revocation')),
    sites       integer NOT NULL CHECK (sites >= 0),
    expires_at  bigint,
    ended_at    bigint,
    reason      text,
    replaced_by bigint REFERENCES keys (id),
    created_at  bigint NOT NULL
  );
  CREATE INDEX keys_product ON keys (product_id, id);
  -- docs/protocol.md#key-lifecycle: one live development key per product, held by the database
  -- across processes.
  CREATE UNIQUE INDEX keys_one_live_dev ON keys (product_id) WHERE kind = 'dev' AND status = 'active';

  CREATE TABLE bound_domains (
    key_id     bigint NOT NULL REFERENCES keys (id),
    domain     text NOT NULL,
    -- Binding order (docs/protocol.md#verdict, rule 9, lists the domains in this order).
    position   integer NOT NULL,
    first_seen bigint NOT NULL,
    last_seen  bigint NOT NULL,
    PRIMARY KEY (key_id, domain),
    UNIQUE (key_id, position)
  );

  CREATE TABLE request_log (
    id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at     bigint NOT NULL,
    key_id bigint REFERENCES keys (id),
    host   text NOT NULL,
    ip     text
  );
  -- The purge (docs/protocol.md#privacy) only looks at entries that still hold an IP: a partial
  -- index keeps it small and the daily run cheap.
  CREATE INDEX request_log_ip_at ON request_log (at) WHERE ip IS NOT NULL;
  `,
  // 2: the rate limit shared by every process on this database (docs/protocol.md#rate-limit). One
  // row per counted request; a refused request writes nothing. Times are milliseconds (the
  // RateLimiter port speaks ms), unlike the seconds of the tables above.
  `
  CREATE TABLE rate_limit_hits (
    client text NOT NULL,
    at_ms  bigint NOT NULL
  );
  -- A hit reads and deletes one client's rows, oldest first.
  CREATE INDEX rate_limit_hits_client_at ON rate_limit_hits (client, at_ms);
  -- The periodic sweep deletes every client's old rows by time.
  CREATE INDEX rate_limit_hits_at ON rate_limit_hits (at_ms);

  -- One hit in ONE round trip and its own transaction (an autocommit statement). The advisory
  -- lock (two-int4 key space, class RATE_LIMIT_LOCK_CLASS, so it never meets MIGRATION_LOCK) queues
  -- every process hitting the same client; the statements after it, each with a new snapshot
  -- (READ COMMITTED, volatile function), see what the previous holder committed, so two
  -- processes never both take the last slot. The lock is released at the end of the statement's
  -- transaction (https://www.postgresql.org/docs/15/explicit-locking.html#ADVISORY-LOCKS).
  CREATE FUNCTION rate_limit_hit(p_client text, p_now bigint, p_window bigint, p_limit integer,
                                 OUT allowed boolean, OUT oldest bigint)
  LANGUAGE plpgsql VOLATILE AS $fn$
  DECLARE
    counted integer;
    latest  bigint;
  BEGIN
    PERFORM pg_advisory_xact_lock(29292, hashtext(p_client));
    DELETE FROM rate_limit_hits WHERE client = p_client AND at_ms + p_window <= p_now;
    SELECT count(*), min(at_ms), max(at_ms) INTO counted, oldest, latest
      FROM rate_limit_hits WHERE client = p_client;
    IF counted < p_limit THEN
      -- A clock that steps back must not count a hit before the latest one (as the memory limiter).
      INSERT INTO rate_limit_hits (client, at_ms) VALUES (p_client, greatest(p_now, coalesce(latest, p_now)));
      allowed := true;
    ELSE
      allowed := false;
    END IF;
  END
  $fn$;
  `,
  // 3: one round trip where the hot path took several (docs/protocol.md#storage). The statements
  // are those of step 2 and of the store's former bindDomain transaction, unchanged in meaning.
  `
  -- The rate limit's sliding-window log, one row per client instead of one per hit: "hits" holds
  -- the counted hits still in the window, oldest first, in ms (never more than the limit). A hit
  -- locks its client's row (FOR UPDATE; a new client's INSERT ... ON CONFLICT), so every process
  -- hitting the same client queues there, and under READ COMMITTED each statement after the lock
  -- sees what the previous holder committed: two processes never both take the last slot. No
  -- advisory lock and no index entry per hit. The step-2 table and function are dropped: no
  -- released build used them.
  DROP FUNCTION rate_limit_hit(text, bigint, bigint, integer);
  DROP TABLE rate_limit_hits;
  CREATE TABLE rate_limit_windows (
    client text PRIMARY KEY,
    hits   bigint[] NOT NULL
  );

  -- The hits of many requests in one statement (the limiter's group commit), hit by hit. Rows are
  -- locked in one global order, client then arrival, so two processes whose batches share clients
  -- queue instead of deadlocking; the hits of one client keep their arrival order. "oldest": the
  -- oldest counted hit still in the window, for the Retry-After of a refused hit.
  CREATE FUNCTION rate_limit_hit_batch(p_clients text[], p_now bigint[], p_window bigint, p_limit integer)
  RETURNS TABLE (ord bigint, allowed boolean, oldest bigint)
  LANGUAGE plpgsql VOLATILE AS $fn$
  DECLARE
    item record;
    kept bigint[];
    first integer;
    size integer;
  BEGIN
    FOR item IN
      SELECT u.client, u.now_ms, u.n
        FROM unnest(p_clients, p_now) WITH ORDINALITY AS u(client, now_ms, n)
       ORDER BY u.client, u.n
    LOOP
      ord := item.n;
      SELECT w.hits INTO kept FROM rate_limit_windows w WHERE w.client = item.client FOR UPDATE;
      IF NOT FOUND THEN
        INSERT INTO rate_limit_windows (client, hits) VALUES (item.client, ARRAY[item.now_ms])
        ON CONFLICT (client) DO NOTHING;
        IF FOUND THEN
          -- A new client: its first hit is counted (the limit is at least 1).
          allowed := true;
          oldest := item.now_ms;
          RETURN NEXT;
          CONTINUE;
        END IF;
        -- Another process inserted it meanwhile: queue on its row like any later hit.
        SELECT w.hits INTO kept FROM rate_limit_windows w WHERE w.client = item.client FOR UPDATE;
      END IF;
      -- The hits are in order, so those that left the window are a prefix.
      size := coalesce(cardinality(kept), 0);
      first := 1;
      WHILE first <= size AND kept[first] + p_window <= item.now_ms LOOP
        first := first + 1;
      END LOOP;
      kept := coalesce(kept[first:size], '{}');
      size := size - first + 1;
      allowed := size < p_limit;
      IF allowed THEN
        -- Never before the latest counted hit: a clock that steps back must not reorder the log
        -- (as the memory limiter).
        kept := kept || greatest(item.now_ms, coalesce(kept[size], item.now_ms));
      END IF;
      oldest := kept[1];
      UPDATE rate_limit_windows w SET hits = kept WHERE w.client = item.client;
      RETURN NEXT;
    END LOOP;
  END
  $fn$;

  -- docs/protocol.md#verdict rule 8, atomic across processes, in ONE round trip: the key row is
  -- locked FIRST, in its own statement, so every binder of this key queues there; the statement
  -- after it (a volatile function: a new snapshot per statement under READ COMMITTED) sees the
  -- domains the previous holder committed. FOR NO KEY UPDATE rather than FOR UPDATE: it excludes
  -- other binders just the same, but not the FOR KEY SHARE that a request_log insert takes through
  -- its foreign key, so logging never waits for a binding
  -- (https://www.postgresql.org/docs/15/explicit-locking.html).
  -- 'already' moves last seen (forward only); otherwise a slot is taken when fewer than p_sites
  -- are bound ('bound'), or nothing changes ('full'); 'missing': no such key.
  CREATE FUNCTION bind_domain(p_key bigint, p_domain text, p_now bigint, p_sites integer)
  RETURNS text
  LANGUAGE plpgsql VOLATILE AS $fn$
  DECLARE
    taken integer;
    next_position integer;
    present boolean;
  BEGIN
    PERFORM 1 FROM keys WHERE id = p_key FOR NO KEY UPDATE;
    IF NOT FOUND THEN
      RETURN 'missing';
    END IF;
    -- One read of the key's domains under the lock. The service calls bind_domain only for a
    -- domain it did not see bound, so 'already' is the rare case of a racing call that bound it.
    SELECT count(*), coalesce(max(position) + 1, 0), coalesce(bool_or(domain = p_domain), false)
      INTO taken, next_position, present
      FROM bound_domains WHERE key_id = p_key;
    IF present THEN
      UPDATE bound_domains SET last_seen = greatest(last_seen, p_now) WHERE key_id = p_key AND domain = p_domain;
      RETURN 'already';
    END IF;
    IF taken >= p_sites THEN
      RETURN 'full';
    END IF;
    -- The conflict clause is the backstop of the (key_id, domain) primary key; with the lock held
    -- it cannot fire.
    INSERT INTO bound_domains (key_id, domain, position, first_seen, last_seen)
    VALUES (p_key, p_domain, next_position, p_now, p_now)
    ON CONFLICT (key_id, domain) DO UPDATE SET last_seen = greatest(bound_domains.last_seen, excluded.last_seen);
    RETURN 'bound';
  END
  $fn$;

  -- The bindings of many requests in one statement (the store's group commit): bind_domain for
  -- each, in one global order, key then arrival, so two processes' batches lock key rows in the
  -- same order and queue instead of deadlocking.
  CREATE FUNCTION bind_domains(p_keys bigint[], p_domains text[], p_now bigint[], p_sites integer[])
  RETURNS TABLE (ord bigint, result text)
  LANGUAGE plpgsql VOLATILE AS $fn$
  DECLARE
    item record;
  BEGIN
    FOR item IN
      SELECT u.key_id, u.domain, u.now_s, u.sites, u.n
        FROM unnest(p_keys, p_domains, p_now, p_sites) WITH ORDINALITY AS u(key_id, domain, now_s, sites, n)
       ORDER BY u.key_id, u.n
    LOOP
      ord := item.n;
      result := bind_domain(item.key_id, item.domain, item.now_s, item.sites);
      RETURN NEXT;
    END LOOP;
  END
  $fn$;

  -- Rule 7's "last seen" of many requests in one statement (the store's group commit). Rows are
  -- updated one by one in (key, domain) order, so two processes' batches lock them in the same
  -- order and queue instead of deadlocking; last seen only moves forward.
  CREATE FUNCTION touch_domains(p_keys bigint[], p_domains text[], p_at bigint[])
  RETURNS void
  LANGUAGE plpgsql VOLATILE AS $fn$
  DECLARE
    item record;
  BEGIN
    FOR item IN
      SELECT u.key_id, u.domain, max(u.at) AS at
        FROM unnest(p_keys, p_domains, p_at) AS u(key_id, domain, at)
       GROUP BY u.key_id, u.domain
       ORDER BY u.key_id, u.domain
    LOOP
      UPDATE bound_domains SET last_seen = greatest(last_seen, item.at)
       WHERE key_id = item.key_id AND domain = item.domain;
    END LOOP;
  END
  $fn$;
  `,
];

/** The schema version this build writes: the highest version in `schema_migrations`. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * The advisory lock every migrating process takes (transaction-scoped), so two processes starting
 * together on a new database migrate it once: the second waits, then sees the new version.
 * Any constant works as long as it never changes; this one is "licence" in ASCII.
 */
export const MIGRATION_LOCK = 0x6c6963656e6365n;

/** Thrown when the database was migrated by a newer build: reading it could misread or lose data. */
export class SchemaVersionError extends Error {
  override readonly name = 'SchemaVersionError';
  constructor(
    readonly database: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `${database}: schema version ${found} is newer than this build supports (${supported}); ` +
        'upgrade @licence/store-postgres, or use a copy of the data made before the upgrade',
    );
  }
}

const CREATE_TABLE = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version    integer PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`;

/** The database's schema version: 0 when it has no `schema_migrations` table yet. */
export async function schemaVersion(client: PoolClient): Promise<number> {
  const table = await client.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (table.rows[0]?.present !== true) {
    return 0;
  }
  const result = await client.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM schema_migrations',
  );
  return result.rows[0]?.version ?? 0;
}

function refuseNewer(database: string, found: number): void {
  if (found > SCHEMA_VERSION) {
    throw new SchemaVersionError(database, found, SCHEMA_VERSION);
  }
}

/**
 * Brings the database to SCHEMA_VERSION and returns the version it had. All pending steps and
 * their `schema_migrations` rows commit in ONE transaction (PostgreSQL's DDL is transactional: a
 * failed step leaves the old version whole) holding `pg_advisory_xact_lock(MIGRATION_LOCK)`.
 * A database at the current version is only read: the usual start takes no lock at all.
 */
export async function migrate(client: PoolClient, database: string, logger?: Logger): Promise<number> {
  const seen = await schemaVersion(client);
  refuseNewer(database, seen);
  if (seen === SCHEMA_VERSION) {
    return seen;
  }
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
    await client.query(CREATE_TABLE);
    // Read again under the lock: another process may have migrated meanwhile.
    const from = await schemaVersion(client);
    refuseNewer(database, from);
    for (let version = from + 1; version <= SCHEMA_VERSION; version += 1) {
      const step = MIGRATIONS[version - 1];
      if (step === undefined) {
        throw new RangeError(`migration ${version} is missing`);
      }
      await client.query(step);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
    }
    await client.query('COMMIT');
    if (from !== SCHEMA_VERSION) {
      logger?.info({ from, to: SCHEMA_VERSION }, 'postgres store: schema migrated');
    }
    return from;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      logger?.warn({ err: String(rollbackError) }, 'postgres store: rollback of a failed migration failed');
    });
    throw error;
  }
}
