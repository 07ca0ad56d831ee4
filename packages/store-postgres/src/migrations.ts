/**
 * The schema, as an ordered list of steps; step N (1-based) is version N of the table
 * `schema_migrations`. A released step is never edited: a change is a new step at the end.
 * The same schema ideas as the SQLite store (docs/protocol.md#key-lifecycle, #privacy, #authors,
 * #activity, #webhooks, nothing more): products with their author; keys as SHA-256 + hint, never the key;
 * bound domains with position, first and last seen; the request log (time, key, host, client IP,
 * outcome; the purge deletes the entries past retention) and its per-day counts; authors and their
 * tokens as SHA-256, never the token; the webhooks' endpoints, secrets and outbox
 * (docs/protocol.md#webhooks); a product's staging patterns, a key's lineage and who ended it
 * (docs/protocol.md#staging-hosts, #buyer-links).
 * Times are whole seconds (`bigint`). The tables are those of store-sqlite/src/migrations.ts, on
 * purpose written twice: each in its own SQL dialect.
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
  // 2: the hot path, one round trip per batch of requests where it would take several
  // (docs/protocol.md#storage): the rate limit shared by every process on this database
  // (docs/protocol.md#rate-limit), and the bindings and last-seen updates of many requests in one
  // statement each (docs/protocol.md#verdict rules 7 and 8).
  `
  -- The rate limit's sliding-window log (docs/protocol.md#rate-limit), one row per client: "hits"
  -- holds the counted hits still in the window, oldest first, never more than the limit; a refused
  -- hit writes nothing. Times are milliseconds (the RateLimiter port speaks ms), unlike the seconds
  -- of the tables of step 1. A hit locks its client's row (FOR UPDATE; a new client's INSERT ...
  -- ON CONFLICT), so every process hitting the same client queues there, and under READ COMMITTED
  -- each statement after the lock sees what the previous holder committed: two processes never
  -- both take the last slot. One row per client rather than one per hit: no index entry and no
  -- advisory lock per hit.
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
  // 3: the purge deletes the entries past retention, IPs and all (docs/protocol.md#privacy), so it
  // walks every entry by time, not only those still holding an IP. On a large log the index build
  // takes a while and blocks request_log writes meanwhile (migrate.ts lifts the statement timeout
  // for it): docs/protocol.md#storage says so.
  `
  DROP INDEX request_log_ip_at;
  CREATE INDEX request_log_at ON request_log (at);
  -- The deleted rows' space is reused once vacuum has marked it free (docs/protocol.md#storage).
  -- A daily purge deletes about 1/365 of the log: at the default scale factor (0.2) autovacuum
  -- would wait for some 70 days of deleted rows; at 0.01, a few days.
  ALTER TABLE request_log SET (autovacuum_vacuum_scale_factor = 0.01);
  `,
  // 4: authors and their tokens (docs/protocol.md#authors), and each verdict's outcome with the
  // per-day counts the activity route reads (docs/protocol.md#activity). Adding a column without a
  // default rewrites nothing: the lines of older builds keep a NULL outcome, and the step takes
  // milliseconds whatever the size of the log.
  `
  ALTER TABLE request_log ADD COLUMN outcome text;

  -- One row per product, UTC day (whole days since the epoch) and outcome, added to in the same
  -- transaction as the log lines it counts (request-log.ts), so the activity route reads a year of
  -- a product as at most a few thousand rows of this primary key, never the log itself. No foreign
  -- key to products: the counts summarise the log, which the purge deletes, not the catalogue.
  CREATE TABLE activity_days (
    product_id text NOT NULL,
    day        integer NOT NULL,
    outcome    text NOT NULL,
    count      bigint NOT NULL,
    PRIMARY KEY (product_id, day, outcome)
  );

  -- An author owns every product whose author is its id, including products created before it
  -- (docs/protocol.md#authors): hence no foreign key from products.author.
  CREATE TABLE authors (
    id         text PRIMARY KEY,
    name       text NOT NULL,
    created_at bigint NOT NULL
  );

  -- A token is stored as its SHA-256 only (docs/protocol.md#authors); the unique index on the hash
  -- is the lookup of every request an author token signs.
  CREATE TABLE author_tokens (
    id           text PRIMARY KEY,
    author_id    text NOT NULL REFERENCES authors (id),
    hash         text NOT NULL UNIQUE CHECK (length(hash) = 64),
    label        text,
    created_at   bigint NOT NULL,
    last_used_at bigint
  );
  -- An author's tokens, oldest first (listAuthorTokens).
  CREATE INDEX author_tokens_author ON author_tokens (author_id, created_at, id);
  `,
  // 5: webhooks (docs/protocol.md#webhooks): the shops' endpoints and their signing secrets, and
  // the outbox: events written in the same transaction as the change that caused them, fanned out
  // at once into one delivery per endpoint, each delivery with its attempts. New tables only: the
  // step rewrites nothing and takes milliseconds whatever the size of the database.
  `
  -- author NULL: every author's events (the operator's endpoints). Authors are never deleted.
  CREATE TABLE webhook_endpoints (
    id         text PRIMARY KEY,
    author     text REFERENCES authors (id),
    url        text NOT NULL,
    events     text[] NOT NULL CHECK (cardinality(events) > 0),
    created_at bigint NOT NULL
  );
  -- An author's endpoints, oldest first (listWebhookEndpoints).
  CREATE INDEX webhook_endpoints_author ON webhook_endpoints (author, created_at, id);

  -- Kept as given: every attempt signs with it. ends_at NULL: the current secret; a rotation ends
  -- the previous one 24 hours later. seq orders them, newest last.
  CREATE TABLE webhook_secrets (
    seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    secret      text NOT NULL,
    ends_at     bigint
  );
  CREATE INDEX webhook_secrets_endpoint ON webhook_secrets (endpoint_id, seq);

  -- seq is the order of events, hence of each endpoint's deliveries. dedupe: at most one event per
  -- value (verdict.refused: once per key, host and UTC day); NULLs never conflict. No foreign key
  -- to products: the event is history, the purge deletes it after 30 days.
  CREATE TABLE webhook_events (
    seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id         text NOT NULL UNIQUE,
    type       text NOT NULL,
    product_id text NOT NULL,
    at         bigint NOT NULL,
    body       text NOT NULL,
    dedupe     text UNIQUE
  );
  -- The purge walks events by time.
  CREATE INDEX webhook_events_at ON webhook_events (at);

  -- next_attempt_at: when it is due, NULL unless pending. lease_until: claimed by a deliverer until
  -- then (NULL once its attempt is recorded); a claim whose process died ends by itself.
  CREATE TABLE webhook_deliveries (
    id              text PRIMARY KEY,
    endpoint_id     text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_seq       bigint NOT NULL REFERENCES webhook_events (seq) ON DELETE CASCADE,
    status          text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at bigint CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)),
    lease_until     bigint
  );
  -- The claim: per endpoint, its pending deliveries in event order, with when each is due.
  CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, event_seq, next_attempt_at)
    WHERE status = 'pending';
  -- The claim's "endpoint busy" test: only deliveries in flight (or whose process died) are here.
  CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id, lease_until)
    WHERE lease_until IS NOT NULL;
  -- The delivery log, newest first (listWebhookDeliveries).
  CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, event_seq);
  -- The purge: an event's deliveries, and the cascade from events.
  CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_seq);

  CREATE TABLE webhook_attempts (
    seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    at          bigint NOT NULL,
    status      integer,
    error       text,
    duration_ms integer NOT NULL
  );
  CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, seq);
  `,
  // 6: staging patterns and buyer links (docs/protocol.md#staging-hosts, #buyer-links). A product
  // keeps its own staging patterns as text[] ('{}' for every existing product: a constant default
  // rewrites nothing). A key keeps its lineage, the first key of its chain of replacements, and who
  // ended it by a replacement (NULL for the keys ended before: unknown). The lineage is backfilled
  // with each existing chain's true first key, walked back along replaced_by, so that a key
  // regenerated before the upgrade is already in its chain's lineage. It stays nullable: a process
  // of the previous build still running during a rolling upgrade inserts keys without one (read as
  // their own id, and set when this build ends them). The partial index serves the count of a
  // lineage's buyer transfers (at most 3 in 30 days) and holds only keys a buyer transferred.
  `
  ALTER TABLE products ADD COLUMN staging text[] NOT NULL DEFAULT '{}'
    CHECK (array_position(staging, NULL) IS NULL);

  ALTER TABLE keys ADD COLUMN lineage bigint REFERENCES keys (id);
  ALTER TABLE keys ADD COLUMN ended_by text CHECK (ended_by IN ('operator', 'author', 'buyer'));

  WITH RECURSIVE chain (id, root) AS (
    SELECT k.id, k.id FROM keys k WHERE NOT EXISTS (SELECT 1 FROM keys r WHERE r.replaced_by = k.id)
    UNION ALL
    SELECT k.replaced_by, chain.root FROM chain JOIN keys k ON k.id = chain.id WHERE k.replaced_by IS NOT NULL
  )
  UPDATE keys SET lineage = chain.root FROM chain WHERE chain.id = keys.id;

  CREATE INDEX keys_buyer_transfers ON keys (lineage, ended_at) WHERE status = 'transfert' AND ended_by = 'buyer';
  `,
];

/** The schema version this build writes: the highest version in `schema_migrations`. */
export const SCHEMA_VERSION = MIGRATIONS.length;
