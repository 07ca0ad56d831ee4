import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postgresAvailability, startPostgres } from '@licence/pg-cluster';
import type { PostgresCluster } from '@licence/pg-cluster';
import { SchemaVersionError } from '@licence/service';
import type { Logger, Store } from '@licence/service';
import { storeContract } from '@licence/store-contract';
import { createPool } from './create-pool.js';
import { migrate } from './migrate.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { openPostgresStore } from './open-postgres-store.js';
import { PURGE_CHUNK } from './purge-request-log.js';
import { withClient } from '../test/with-client.js';

// With the binaries the suite runs; without them it is skipped with one loud line, and
// in CI (CI=true) this line rejects so the file fails instead of passing empty.
const { binDir } = await postgresAvailability('store-postgres');
const available = binDir !== null;

/** One throwaway cluster for the whole file; every test takes a fresh database of it. */
let cluster: PostgresCluster | undefined;

function theCluster(): PostgresCluster {
  if (cluster === undefined) {
    throw new Error('the PostgreSQL cluster is not started');
  }
  return cluster;
}

beforeAll(async () => {
  if (available) {
    cluster = await startPostgres({ binDir });
  }
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

/** A logger that keeps what it is given, to check what the store says (and never says). */
function recordingLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const keep = (fields: Record<string, unknown>, message?: string): void => {
    lines.push(JSON.stringify({ ...fields, message }));
  };
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

interface LogRow {
  readonly at: number;
  readonly host: string;
  readonly ip: string | null;
  readonly outcome: string | null;
}

/** The request log as the database holds it (`at` is bigint, which pg hands over as a string). */
async function storedLog(url: string): Promise<LogRow[]> {
  return withClient(url, async (client) =>
    (
      await client.query<{ at: string; host: string; ip: string | null; outcome: string | null }>(
        'SELECT at, host, ip, outcome FROM request_log ORDER BY id',
      )
    ).rows.map((row) => ({ ...row, at: Number(row.at) })),
  );
}

/** The activity counts as the database holds them, in key order, `count` as a number. */
async function storedDays(url: string): Promise<{ product_id: string; day: number; outcome: string; count: number }[]> {
  return withClient(url, async (client) =>
    (
      await client.query<{ product_id: string; day: number; outcome: string; count: string }>(
        'SELECT product_id, day, outcome, count FROM activity_days ORDER BY 1, 2, 3',
      )
    ).rows.map((row) => ({ ...row, count: Number(row.count) })),
  );
}

/** The names of the indexes of a table. */
async function indexesOf(url: string, table: string): Promise<string[]> {
  return withClient(url, async (client) =>
    (
      await client.query<{ name: string }>(
        "SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1 ORDER BY 1",
        [table],
      )
    ).rows.map((row) => row.name),
  );
}

async function createdKey(store: Store, sites: number, hash = 'c'.repeat(64)): Promise<string> {
  await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
  const inserted = await store.insertKey({
    hash,
    hint: 'AB12',
    produit: 'theme',
    kind: 'buyer',
    sites,
    expiresAt: null,
    createdAt: 2,
  });
  if (inserted.result !== 'created') {
    throw new Error(`insertKey: ${inserted.result}`);
  }
  return inserted.id;
}

describe.skipIf(!available)('PostgreSQL store', () => {
  storeContract('postgres', async () => {
    const url = await theCluster().createDatabase();
    const store = await openPostgresStore({ connectionString: url });
    return { store, cleanup: () => store.close(), loggedRows: () => storedLog(url) };
  });

  describe('migrations', () => {
    let url: string;

    beforeEach(async () => {
      url = await theCluster().createDatabase();
    });

    it('brings a fresh database to the latest version, one row per step, and logs it', async () => {
      const logger = recordingLogger();
      const store = await openPostgresStore({ connectionString: url, logger });
      await store.close();
      const versions = await withClient(url, async (client) =>
        (await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).rows.map(
          (r) => r.version,
        ),
      );
      expect(versions).toEqual(MIGRATIONS.map((_, i) => i + 1));
      expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
      const tables = await withClient(url, async (client) =>
        (
          await client.query<{ name: string }>(
            "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
          )
        ).rows.map((r) => r.name),
      );
      expect(tables).toEqual([
        'activity_days',
        'author_tokens',
        'authors',
        'bound_domains',
        'keys',
        'products',
        'rate_limit_windows',
        'request_log',
        'schema_migrations',
        'webhook_attempts',
        'webhook_deliveries',
        'webhook_endpoints',
        'webhook_events',
        'webhook_secrets',
      ]);
      // The hot path's functions, and nothing else: the final schema, not a trace of an earlier one.
      const functions = await withClient(url, async (client) =>
        (
          await client.query<{ name: string }>(
            "SELECT proname AS name FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1",
          )
        ).rows.map((r) => r.name),
      );
      expect(functions).toEqual(['bind_domain', 'bind_domains', 'rate_limit_hit_batch', 'touch_domains']);
      expect(logger.lines.some((line) => line.includes('schema migrated'))).toBe(true);
    });

    it('migrates once when several stores open a new database together', async () => {
      const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore({ connectionString: url })));
      await Promise.all(stores.map((store) => store.close()));
      const count = await withClient(
        url,
        async (client) => (await client.query<{ n: string }>('SELECT count(*) AS n FROM schema_migrations')).rows[0]?.n,
      );
      expect(count).toBe(String(SCHEMA_VERSION));
    });

    it('keeps products, keys, domains and the log across close and reopen, and migrates nothing again', async () => {
      const first = await openPostgresStore({ connectionString: url });
      const id = await createdKey(first, 2);
      expect(await first.bindDomain(id, 'exemple.fr', 2, 3)).toBe('bound');
      await first.logRequest({
        at: 3,
        keyId: id,
        host: 'exemple.fr',
        ip: '203.0.113.9',
        outcome: 'ok',
        produit: 'theme',
      });
      const before = await first.findKeyById(id);
      await first.close();

      const logger = recordingLogger();
      const second = await openPostgresStore({ connectionString: url, logger });
      expect(await second.findKeyById(id)).toEqual(before);
      expect(await second.getProduct('theme')).toEqual({
        id: 'theme',
        author: 'alice',
        name: 'Theme',
        createdAt: 1,
        staging: [],
      });
      expect(await second.bindDomain(id, 'exemple.fr', 2, 4)).toBe('already');
      expect(await second.purgeRequestLog(10)).toBe(1);
      await second.close();
      expect(logger.lines.some((line) => line.includes('schema migrated'))).toBe(false);
    });

    it('upgrades a database of version 2: a plain index on time replaces the partial one, every entry kept', async () => {
      // The database as the previous build left it: its two steps, traffic, and its purge (ip = NULL).
      const pool = createPool({ connectionString: url });
      const client = await pool.connect();
      try {
        expect(await migrate(client, 'previous build', undefined, MIGRATIONS.slice(0, 2))).toBe(0);
        await client.query(
          "INSERT INTO request_log (at, key_id, host, ip) SELECT n, NULL, 'h' || n || '.fr', '203.0.113.' || (n % 200) FROM generate_series(1, 300) AS n",
        );
        await client.query('UPDATE request_log SET ip = NULL WHERE ip IS NOT NULL AND at <= 200');
      } finally {
        client.release();
        await pool.end();
      }
      expect(await indexesOf(url, 'request_log')).toEqual(['request_log_ip_at', 'request_log_pkey']);

      const logger = recordingLogger();
      const store = await openPostgresStore({ connectionString: url, logger });
      expect(logger.lines.some((line) => line.includes(`"from":2,"to":${SCHEMA_VERSION}`))).toBe(true);
      expect(await indexesOf(url, 'request_log')).toEqual(['request_log_at', 'request_log_pkey']);
      const options = await withClient(
        url,
        async (client) =>
          (
            await client.query<{ options: string[] }>(
              "SELECT reloptions AS options FROM pg_class WHERE relname = 'request_log'",
            )
          ).rows[0]?.options,
      );
      expect(options).toEqual(['autovacuum_vacuum_scale_factor=0.01']);
      expect(await storedLog(url)).toHaveLength(300);
      // The entries the old purge left without an IP are deleted by the new one, with the rest.
      expect(await store.purgeRequestLog(251)).toBe(250);
      expect((await storedLog(url)).map((row) => row.at)).toEqual(Array.from({ length: 50 }, (_, i) => 251 + i));
      await store.close();
    });

    it('upgrades a database of version 3: products, keys, domains and log lines kept, old lines without an outcome', async () => {
      // The database as the previous build left it: its three steps, a product, a bound key, traffic.
      const pool = createPool({ connectionString: url });
      const client = await pool.connect();
      let keyId: string;
      try {
        expect(await migrate(client, 'previous build', undefined, MIGRATIONS.slice(0, 3))).toBe(0);
        await client.query("INSERT INTO products (id, author, name, created_at) VALUES ('theme', 'alice', 'Theme', 1)");
        const key = await client.query<{ id: string }>(
          "INSERT INTO keys (hash, hint, product_id, kind, sites, created_at) VALUES ($1, 'AB12', 'theme', 'buyer', 2, 2) RETURNING id::text AS id",
          ['c'.repeat(64)],
        );
        keyId = key.rows[0]?.id ?? '';
        await client.query(
          "INSERT INTO bound_domains (key_id, domain, position, first_seen, last_seen) VALUES ($1, 'exemple.fr', 0, 3, 4)",
          [keyId],
        );
        await client.query(
          "INSERT INTO request_log (at, key_id, host, ip) SELECT 86400 + n, $1, 'exemple.fr', '203.0.113.' || (n % 200) FROM generate_series(1, 200) AS n",
          [keyId],
        );
      } finally {
        client.release();
        await pool.end();
      }

      const logger = recordingLogger();
      const store = await openPostgresStore({ connectionString: url, logger });
      try {
        expect(logger.lines.some((line) => line.includes(`"from":3,"to":${SCHEMA_VERSION}`))).toBe(true);
        expect(await store.getProduct('theme')).toEqual({
          id: 'theme',
          author: 'alice',
          name: 'Theme',
          createdAt: 1,
          staging: [],
        });
        expect((await store.findKeyById(keyId))?.domains).toEqual([
          { domain: 'exemple.fr', firstSeen: 3, lastSeen: 4 },
        ]);
        const kept = await storedLog(url);
        expect(kept).toHaveLength(200);
        expect(kept.every((row) => row.outcome === null && row.ip !== null)).toBe(true);
        // The old lines have no outcome, so nothing is made up for them: no counts before the upgrade.
        expect(await store.activity('theme', 0, 10)).toEqual([]);
        // The products of the author created later are its own (docs/protocol.md#authors).
        expect(await store.addAuthor({ id: 'alice', name: 'Alice', createdAt: 5 })).toEqual({
          result: 'created',
          id: 'alice',
        });
        expect((await store.listProducts('alice')).map((product) => product.id)).toEqual(['theme']);
        // New lines are logged with their outcome and counted; the purge deletes old and new alike.
        const entry = { at: 2 * 86400 + 5, keyId, host: 'exemple.fr', ip: '203.0.113.1', produit: 'theme' } as const;
        await Promise.all([
          store.logRequest({ ...entry, outcome: 'ok' }),
          store.logRequest({ ...entry, outcome: 'ok' }),
        ]);
        expect(await store.activity('theme', 0, 10)).toEqual([{ day: 2, outcome: 'ok', count: 2 }]);
        expect((await storedLog(url)).filter((row) => row.outcome === 'ok')).toHaveLength(2);
        expect(await store.purgeRequestLog(2 * 86400)).toBe(200);
        expect(await store.activity('theme', 0, 10)).toEqual([{ day: 2, outcome: 'ok', count: 2 }]);
      } finally {
        await store.close();
      }
    });

    it('upgrades a database of version 4: authors, tokens, keys and counts kept, webhooks work at once', async () => {
      // The database as the previous build left it: its four steps, an author with a token, a bound
      // key and its counted traffic.
      const pool = createPool({ connectionString: url });
      const client = await pool.connect();
      let keyId: string;
      try {
        expect(await migrate(client, 'previous build', undefined, MIGRATIONS.slice(0, 4))).toBe(0);
        await client.query("INSERT INTO authors (id, name, created_at) VALUES ('alice', 'Alice', 1)");
        await client.query(
          "INSERT INTO author_tokens (id, author_id, hash, label, created_at) VALUES ('tok_1', 'alice', $1, 'ci', 2)",
          ['ab'.repeat(32)],
        );
        await client.query("INSERT INTO products (id, author, name, created_at) VALUES ('theme', 'alice', 'Theme', 1)");
        const key = await client.query<{ id: string }>(
          "INSERT INTO keys (hash, hint, product_id, kind, sites, created_at) VALUES ($1, 'AB12', 'theme', 'buyer', 2, 2) RETURNING id::text AS id",
          ['c'.repeat(64)],
        );
        keyId = key.rows[0]?.id ?? '';
        await client.query(
          "INSERT INTO bound_domains (key_id, domain, position, first_seen, last_seen) VALUES ($1, 'exemple.fr', 0, 3, 4)",
          [keyId],
        );
        await client.query("INSERT INTO activity_days (product_id, day, outcome, count) VALUES ('theme', 1, 'ok', 7)");
      } finally {
        client.release();
        await pool.end();
      }

      const logger = recordingLogger();
      const store = await openPostgresStore({ connectionString: url, logger });
      try {
        expect(logger.lines.some((line) => line.includes(`"from":4,"to":${SCHEMA_VERSION}`))).toBe(true);
        expect((await store.findKeyById(keyId))?.domains).toEqual([
          { domain: 'exemple.fr', firstSeen: 3, lastSeen: 4 },
        ]);
        expect((await store.findAuthorToken('ab'.repeat(32)))?.id).toBe('tok_1');
        expect(await store.activity('theme', 0, 2)).toEqual([{ day: 1, outcome: 'ok', count: 7 }]);
        // The new tables take the old rows' author and product at once: an endpoint, then an event.
        const secret = `whsec_${'A'.repeat(43)}=`;
        const endpoint = { id: 'wh_a', author: 'alice', url: 'https://shop.example/hook', createdAt: 5, secret };
        expect(await store.addWebhookEndpoint({ ...endpoint, events: ['key.revoked'] })).toEqual({
          result: 'created',
          id: 'wh_a',
        });
        const event = { id: 'msg_1', type: 'key.revoked', produit: 'theme', at: 6, body: '{}', dedupe: null } as const;
        expect(await store.revokeKey(keyId, null, 6, [event])).toBe('revoked');
        expect((await store.listWebhookDeliveries('wh_a', 10)).map((delivery) => delivery.eventId)).toEqual(['msg_1']);
      } finally {
        await store.close();
      }
    });

    it('upgrades a database of version 5: no staging patterns, and lineages backfilled along replaced_by', async () => {
      // The previous build's database: a key regenerated then transferred (a -> b -> c, c active)
      // and an unrelated key d.
      const pool = createPool({ connectionString: url });
      const client = await pool.connect();
      const ids: string[] = [];
      try {
        expect(await migrate(client, 'previous build', undefined, MIGRATIONS.slice(0, 5))).toBe(0);
        await client.query("INSERT INTO products (id, author, name, created_at) VALUES ('theme', 'alice', 'Theme', 1)");
        for (const hash of ['a', 'b', 'c', 'd']) {
          const key = await client.query<{ id: string }>(
            "INSERT INTO keys (hash, hint, product_id, kind, sites, created_at) VALUES ($1, 'AB12', 'theme', 'buyer', 1, 2) RETURNING id::text AS id",
            [hash.repeat(64)],
          );
          ids.push(key.rows[0]?.id ?? '');
        }
        const end = 'UPDATE keys SET status = $1, ended_at = 3, replaced_by = $2 WHERE id = $3';
        await client.query(end, ['regeneration', ids[1], ids[0]]);
        await client.query(end, ['transfert', ids[2], ids[1]]);
      } finally {
        client.release();
        await pool.end();
      }

      const logger = recordingLogger();
      const store = await openPostgresStore({ connectionString: url, logger });
      try {
        expect(logger.lines.some((line) => line.includes(`"from":5,"to":${SCHEMA_VERSION}`))).toBe(true);
        expect(await indexesOf(url, 'keys')).toContain('keys_buyer_transfers');
        expect(await store.getProduct('theme')).toEqual({
          id: 'theme',
          author: 'alice',
          name: 'Theme',
          createdAt: 1,
          staging: [],
        });
        const [first = '', , last = '', other = ''] = ids;
        for (const id of ids.slice(0, 3)) {
          expect(await store.findKeyById(id)).toMatchObject({ lineage: first, endedBy: null, staging: [] });
        }
        expect((await store.findKeyById(other))?.lineage).toBe(other);
        expect((await store.findKeyByHash('c'.repeat(64)))?.lineage).toBe(first);
        // Transfers ended before the upgrade are not counted as the buyer's; the next one is.
        expect(await store.countBuyerTransfers(first, 0)).toBe(0);
        const next = {
          hash: 'e'.repeat(64),
          hint: 'AB12',
          produit: 'theme',
          kind: 'buyer',
          sites: 1,
          expiresAt: null,
          createdAt: 4,
        } as const;
        expect((await store.replaceKey(last, 'transfert', next, [], 4, [], 'buyer')).result).toBe('created');
        expect(await store.countBuyerTransfers(first, 4)).toBe(1);
        expect((await store.findKeyByHash(next.hash))?.lineage).toBe(first);
        expect((await store.updateProduct('theme', { staging: ['*.staging.example'] }))?.staging).toEqual([
          '*.staging.example',
        ]);
        expect((await store.findKeyById(other))?.staging).toEqual(['*.staging.example']);
      } finally {
        await store.close();
      }
      // Step 6's constraints: ended_by is one of its initiators, and a pattern list holds no NULL.
      await withClient(url, async (plain) => {
        await expect(plain.query("UPDATE keys SET ended_by = 'shop'")).rejects.toThrow(/check constraint/);
        await expect(plain.query("UPDATE products SET staging = ARRAY['a.example', NULL]")).rejects.toThrow(
          /check constraint/,
        );
      });
    });

    it("reads a key a previous build's process inserted without a lineage as its own, and gives it one when ending it", async () => {
      const store = await openPostgresStore({ connectionString: url });
      try {
        const old = await createdKey(store, 1);
        // As a process of schema version 5 still running during the upgrade writes a key.
        await withClient(url, (plain) => plain.query('UPDATE keys SET lineage = NULL WHERE id = $1', [old]));
        expect((await store.findKeyById(old))?.lineage).toBe(old);
        const next = {
          hash: 'f'.repeat(64),
          hint: 'AB12',
          produit: 'theme',
          kind: 'buyer',
          sites: 1,
          expiresAt: null,
          createdAt: 3,
        } as const;
        expect((await store.replaceKey(old, 'transfert', next, [], 3, [], 'buyer')).result).toBe('created');
        expect((await store.findKeyByHash(next.hash))?.lineage).toBe(old);
        expect(await store.countBuyerTransfers(old, 0)).toBe(1);
      } finally {
        await store.close();
      }
    });

    it("runs a migration step longer than the pool's statement_timeout, and gives the connection its timeout back", async () => {
      const pool = createPool({ connectionString: url, pool: { statementTimeoutMs: 200 } });
      const client = await pool.connect();
      try {
        // The pool's timeout is real: the same statement outside a migration is cancelled.
        await expect(client.query('SELECT pg_sleep(0.5)')).rejects.toThrow(/statement timeout/);
        const steps = ['CREATE TABLE slow_step (x integer)', 'SELECT pg_sleep(0.5)'];
        expect(await migrate(client, 'test', undefined, steps)).toBe(0);
        const versions = await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY 1');
        expect(versions.rows.map((row) => row.version)).toEqual([1, 2]);
        expect((await client.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]).toEqual({
          statement_timeout: '200ms',
        });
      } finally {
        client.release();
        await pool.end();
      }
    });

    it('refuses a database of a newer version, naming it without the password, and leaves it as it was', async () => {
      const store = await openPostgresStore({ connectionString: url });
      await store.close();
      await withClient(url, (client) =>
        client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [SCHEMA_VERSION + 1]),
      );
      const withPassword = url.replace('postgres@', 'postgres:s3cret-word@');

      const opening = openPostgresStore({ connectionString: withPassword });
      await expect(opening).rejects.toBeInstanceOf(SchemaVersionError);
      await expect(opening).rejects.toThrow(
        new RegExp(`schema version ${SCHEMA_VERSION + 1} is newer than this build supports \\(${SCHEMA_VERSION}\\)`),
      );
      const message = await opening.catch((error: unknown) => String(error));
      expect(message).toContain(`127.0.0.1:${theCluster().port}/`);
      expect(message).not.toContain('s3cret-word');
      const versions = await withClient(url, async (client) =>
        (await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).rows.map(
          (r) => r.version,
        ),
      );
      expect(versions).toEqual([...MIGRATIONS.map((_, i) => i + 1), SCHEMA_VERSION + 1]);
    });
  });

  describe('opening', () => {
    let silent: Server | undefined;
    const sockets: Socket[] = [];

    afterEach(async () => {
      for (const socket of sockets.splice(0)) {
        socket.destroy();
      }
      await new Promise<void>((resolve) => {
        if (silent === undefined) resolve();
        else silent.close(() => resolve());
      });
      silent = undefined;
    });

    it('rejects with one clear error when nothing listens', async () => {
      // The cluster's port with a database that does not exist, then a port nobody listens on.
      const url = `postgres://postgres@127.0.0.1:${theCluster().port}/no_such_database`;
      await expect(openPostgresStore({ connectionString: url })).rejects.toThrow(
        /^postgres:\/\/127\.0\.0\.1:\d+\/no_such_database: cannot open the PostgreSQL store: database "no_such_database" does not exist$/,
      );
      await expect(openPostgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/licence' })).rejects.toThrow(
        /cannot open the PostgreSQL store: .*ECONNREFUSED/,
      );
    });

    it('gives up on a server that accepts the connection but never answers (connection timeout)', async () => {
      silent = createServer((socket) => {
        sockets.push(socket);
      });
      await new Promise<void>((resolve) => silent?.listen(0, '127.0.0.1', resolve));
      const address = silent.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      await expect(
        openPostgresStore({
          connectionString: `postgres://postgres@127.0.0.1:${port}/licence`,
          pool: { connectionTimeoutMs: 300 },
        }),
      ).rejects.toThrow(/cannot open the PostgreSQL store: .*timeout/i);
    });
  });

  describe('timeouts (no request hangs when the database does)', () => {
    it('cancels a statement that runs past statement_timeout (SELECT pg_sleep(5) through the pool)', async () => {
      const pool = createPool({ connectionString: theCluster().url });
      try {
        await expect(pool.query('SELECT pg_sleep(5)')).rejects.toThrow(/statement timeout/);
        // The pool still serves afterwards.
        expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      } finally {
        await pool.end();
      }
    }, 15_000);

    it('fails a binding that waits on a key row locked elsewhere, instead of waiting for ever', async () => {
      const url = await theCluster().createDatabase();
      const store = await openPostgresStore({ connectionString: url, pool: { statementTimeoutMs: 500 } });
      try {
        const id = await createdKey(store, 3);
        await withClient(url, async (client) => {
          await client.query('BEGIN');
          await client.query('SELECT 1 FROM keys WHERE id = $1 FOR UPDATE', [id]);
          await expect(store.bindDomain(id, 'a.fr', 3, 10)).rejects.toThrow(/statement timeout/);
          await client.query('ROLLBACK');
        });
        // Once the lock is gone, the same call binds: nothing was left half done.
        expect(await store.bindDomain(id, 'a.fr', 3, 11)).toBe('bound');
      } finally {
        await store.close();
      }
    }, 15_000);
  });

  describe('concurrency', () => {
    let url: string;
    let stores: Store[];

    beforeEach(async () => {
      url = await theCluster().createDatabase();
      stores = [await openPostgresStore({ connectionString: url }), await openPostgresStore({ connectionString: url })];
    });

    afterEach(async () => {
      await Promise.all(stores.map((store) => store.close()));
    });

    it('binds exactly 3 of 20 domains racing on a 3-site key through one pool', async () => {
      const [store] = stores;
      if (store === undefined) throw new Error('no store');
      const id = await createdKey(store, 3);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.bindDomain(id, `site-${i}.fr`, 3, 100 + i)),
      );
      expect(results.filter((r) => r === 'bound')).toHaveLength(3);
      expect(results.filter((r) => r === 'full')).toHaveLength(17);
      const rows = await withClient(
        url,
        async (client) =>
          (
            await client.query<{ position: number }>(
              'SELECT position FROM bound_domains WHERE key_id = $1 ORDER BY position',
              [id],
            )
          ).rows,
      );
      expect(rows.map((r) => r.position)).toEqual([0, 1, 2]);
    });

    it('binds exactly 3 of 40 domains racing through two pools (two stores, as two processes would)', async () => {
      const [a, b] = stores;
      if (a === undefined || b === undefined) throw new Error('no store');
      const id = await createdKey(a, 3);
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).bindDomain(id, `site-${i}.fr`, 3, 100 + i)),
      );
      expect(results.filter((r) => r === 'bound')).toHaveLength(3);
      expect((await b.findKeyById(id))?.domains).toHaveLength(3);
    });

    it('lets one of two racing dev keys in and answers dev-exists to the other', async () => {
      const [a, b] = stores;
      if (a === undefined || b === undefined) throw new Error('no store');
      await a.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
      const dev = (hash: string) => ({
        hash,
        hint: 'DEV1',
        produit: 'theme',
        kind: 'dev' as const,
        sites: 0,
        expiresAt: null,
        createdAt: 2,
      });
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).insertKey(dev(String(i + 1).padStart(64, 'd')))),
      );
      expect(outcomes.filter((o) => o.result === 'created')).toHaveLength(1);
      expect(outcomes.filter((o) => o.result === 'dev-exists')).toHaveLength(7);
    });

    it('deletes each entry once when two stores purge at once', async () => {
      const [a, b] = stores;
      if (a === undefined || b === undefined) throw new Error('no store');
      const rows = PURGE_CHUNK * 2 + 3;
      await withClient(url, (client) =>
        client.query(
          "INSERT INTO request_log (at, key_id, host, ip) SELECT n, NULL, 'a.fr', '203.0.113.7' FROM generate_series(1, $1) AS n",
          [rows],
        ),
      );
      const [x, y] = await Promise.all([a.purgeRequestLog(rows + 1), b.purgeRequestLog(rows + 1)]);
      expect((x ?? 0) + (y ?? 0)).toBe(rows);
      expect(await a.purgeRequestLog(rows + 1)).toBe(0);
      expect(await storedLog(url)).toEqual([]);
    });
  });

  describe('ids and bad calls (as the SQLite store)', () => {
    let store: Store;

    beforeEach(async () => {
      store = await openPostgresStore({ connectionString: await theCluster().createDatabase() });
    });

    afterEach(async () => {
      await store.close();
    });

    it('answers null or not-active for malformed ids, and rejects writes naming the bad id', async () => {
      const id = await createdKey(store, 1);
      expect(id).toMatch(/^[1-9][0-9]*$/);
      for (const bad of ['', 'abc', '01', '1e3', '-1', '99999999999999999999']) {
        expect(await store.findKeyById(bad)).toBeNull();
        expect(await store.revokeKey(bad, null, 5)).toBe('not-active');
        expect(
          await store.replaceKey(
            bad,
            'regeneration',
            {
              hash: 'e'.repeat(64),
              hint: 'X',
              produit: 'theme',
              kind: 'buyer',
              sites: 1,
              expiresAt: null,
              createdAt: 5,
            },
            [],
            5,
          ),
        ).toEqual({ result: 'not-active' });
        await expect(store.bindDomain(bad, 'a.fr', 1, 5)).rejects.toThrow(
          `keyId: expected a key id of this store, got ${JSON.stringify(bad)}`,
        );
        await expect(store.touchDomain(bad, 'a.fr', 5)).rejects.toThrow(/keyId: expected a key id of this store/);
        const entry = { at: 5, keyId: bad, host: 'a.fr', ip: '203.0.113.1', outcome: 'ok', produit: 'theme' } as const;
        await expect(store.logRequest(entry)).rejects.toThrow(/keyId: expected a key id of this store/);
      }
    });

    it('rejects binding to a well-formed id that names no key', async () => {
      await expect(store.bindDomain('424242', 'a.fr', 1, 5)).rejects.toThrow('bindDomain: no key with id 424242');
    });

    it('logs an unknown key with a null key id', async () => {
      await store.logRequest({
        at: 7,
        keyId: null,
        host: 'b.fr',
        ip: '198.51.100.4',
        outcome: 'inconnue',
        produit: null,
      });
      expect(await store.purgeRequestLog(8)).toBe(1);
    });

    it('deletes, with the log, the rate-limit rows whose newest hit is older than the cut-off', async () => {
      const url = await theCluster().createDatabase();
      const purging = await openPostgresStore({ connectionString: url });
      try {
        await withClient(url, (client) =>
          client.query(
            "INSERT INTO rate_limit_windows (client, hits) VALUES ('203.0.113.1', '{1000, 9000}'), ('203.0.113.2', '{1000, 11000}')",
          ),
        );
        expect(await purging.purgeRequestLog(10)).toBe(0);
        const left = await withClient(
          url,
          async (client) => (await client.query<{ client: string }>('SELECT client FROM rate_limit_windows')).rows,
        );
        expect(left).toEqual([{ client: '203.0.113.2' }]);
      } finally {
        await purging.close();
      }
    });

    it('closes idempotently', async () => {
      await store.close();
      await expect(store.close()).resolves.toBeUndefined();
    });
  });

  describe('batched hot path (one statement for the calls of one event-loop turn)', () => {
    let url: string;
    let store: Store;

    beforeEach(async () => {
      url = await theCluster().createDatabase();
      store = await openPostgresStore({ connectionString: url });
    });

    afterEach(async () => {
      await store.close();
    });

    it('gives each of 150 concurrent lookups its own key, the same hash twice included, and null for the unknown', async () => {
      await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] });
      const hashes = Array.from({ length: 100 }, (_, i) => i.toString(16).padStart(64, '0'));
      for (const [i, hash] of hashes.entries()) {
        await store.insertKey({
          hash,
          hint: `H${String(i).padStart(3, '0')}`,
          produit: 'theme',
          kind: 'buyer',
          sites: 1 + (i % 3),
          expiresAt: null,
          createdAt: 2,
        });
      }
      const asked = [
        ...hashes,
        ...hashes.slice(0, 25),
        ...Array.from({ length: 25 }, (_, i) => `f${i}`.padStart(64, 'e')),
      ];
      const found = await Promise.all(asked.map((hash) => store.findKeyByHash(hash)));
      asked.forEach((hash, i) => {
        if (hash.startsWith('e')) expect(found[i]).toBeNull();
        else expect(found[i]?.hash).toBe(hash);
      });
      expect(found[0]).not.toBe(found[100]);
      expect(found[0]).toEqual(found[100]);
      expect(found[7]?.sites).toBe(1 + (7 % 3));
    });

    it('writes 130 concurrent log entries, and a bad one fails alone, not the entries beside it, nor counted', async () => {
      const id = await createdKey(store, 1);
      const entries: Store.RequestLogEntry[] = Array.from({ length: 130 }, (_, i) => ({
        at: 10 + i,
        keyId: i % 2 === 0 ? id : null,
        host: `h${i}.fr`,
        ip: '203.0.113.7',
        outcome: i % 2 === 0 ? 'ok' : 'inconnue',
        produit: i % 2 === 0 ? 'theme' : null,
      }));
      const settled = await Promise.allSettled([
        ...entries.map((entry) => store.logRequest(entry)),
        store.logRequest({
          at: 9,
          keyId: '424242',
          host: 'ghost.fr',
          ip: '203.0.113.8',
          outcome: 'revocation',
          produit: 'theme',
        }),
      ]);
      expect(settled.slice(0, 130).every((result) => result.status === 'fulfilled')).toBe(true);
      const last = settled[130];
      expect(last?.status).toBe('rejected');
      expect(last?.status === 'rejected' ? String(last.reason) : '').toMatch(/foreign key/);
      const rows = await withClient(
        url,
        async (client) =>
          (
            await client.query<{ n: string; keyed: string }>(
              'SELECT count(*) AS n, count(key_id) AS keyed FROM request_log',
            )
          ).rows[0],
      );
      expect(rows).toEqual({ n: '130', keyed: '65' });
      // The failed line's count went with it (one statement); the unknown keys count nowhere.
      expect(await storedDays(url)).toEqual([{ product_id: 'theme', day: 0, outcome: 'ok', count: 65 }]);
    });

    it('moves last seen of many domains at once, forward only, the same domain twice in a batch included', async () => {
      const id = await createdKey(store, 3);
      for (const domain of ['a.fr', 'b.fr', 'c.fr']) expect(await store.bindDomain(id, domain, 3, 100)).toBe('bound');
      await Promise.all([
        store.touchDomain(id, 'a.fr', 150),
        store.touchDomain(id, 'a.fr', 170),
        store.touchDomain(id, 'b.fr', 50),
        store.touchDomain(id, 'c.fr', 160),
        store.touchDomain(id, 'not-bound.fr', 200),
      ]);
      const domains = (await store.findKeyById(id))?.domains.map((d) => [d.domain, d.lastSeen]);
      expect(domains).toEqual([
        ['a.fr', 170],
        ['b.fr', 100],
        ['c.fr', 160],
      ]);
    });

    it('binds concurrently in one round trip each: 40 domains on a 3-site key, exactly 3 bound', async () => {
      const id = await createdKey(store, 3);
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => store.bindDomain(id, `d${i}.fr`, 3, 5)));
      expect(results.filter((r) => r === 'bound')).toHaveLength(3);
      expect(results.filter((r) => r === 'full')).toHaveLength(37);
      expect(await store.bindDomain(id, (await store.findKeyById(id))?.domains[0]?.domain ?? '', 3, 6)).toBe('already');
    });
  });
});
