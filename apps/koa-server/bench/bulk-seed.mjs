// Bulk seeding for the benchmarks (not a test): a million keys and ten million request-log lines
// in minutes, where the store's own insertKey and logRequest would take hours. Each store first
// opens the database once, so it is created and migrated by the store's own steps; then this file
// writes straight into that schema with SQL, the columns computed exactly as the store's callers
// compute them: the key's SHA-256 (of the normalised key, in lower-case hex: docs/protocol.md#key-lifecycle)
// and hint (keyHint), its lineage its own id, its bound domain at position 0 (docs/protocol.md#storage,
// what is kept).
//
//   seedSqlite(file, options) / seedPostgres(url, options)
//   options: { keys, product = 'theme', boundShare = 0.5, logRows = 0, logDays = 366, now,
//              seenAt = now - 1 day (the bound domains' last seen: a day ago, so a key's first
//              verdict moves it, docs/protocol.md#verdict rule 7; `now` for none) }
//   answers { bound: [{ cle, domain }], fresh: [{ cle }], seconds, keysSeconds, logSeconds }
//
// The request log's mix is the one of bench/activity.mjs and bench/request-log-size.mjs: 80% of
// the lines from a known key with its shop's host (93% ok, 4% essai, 2% autre_domaine, 1% the
// other refusals), 20% from unknown keys (no key, `inconnue`, counted nowhere); client addresses
// from the RFC 2544 benchmarking range; times spread evenly over `logDays` days up to `now`. The
// per-day activity counts (docs/protocol.md#activity) are made from the lines, as logRequest
// keeps them. A database that already has keys gets the new ones after them; `keys: 0` adds only
// log lines, over the product's keys already there (bench/growth.mjs seeds a database of keys
// once, copies it, and gives the copy its log).
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { generateKey, keyHint, normalizeKey } from '@licence/core';
import { openPostgres } from '@licence/store-postgres';
import { openSqliteStore } from '@licence/store-sqlite';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const Database = createRequire(join(root, 'packages/store-sqlite/package.json'))('better-sqlite3');
const pg = createRequire(join(root, 'packages/store-postgres/package.json'))('pg');

const DAY = 86_400;
const PG_CHUNK = 50_000; // keys per unnest statement: a few MB of parameters each

/** The options with their defaults, checked once. */
function settle(options) {
  const o = {
    seenAt: (options.now ?? Math.floor(Date.now() / 1000)) - DAY,
    product: 'theme',
    boundShare: 0.5,
    logRows: 0,
    logDays: 366,
    now: Math.floor(Date.now() / 1000),
    ...options,
  };
  for (const name of ['keys', 'logRows', 'logDays', 'now', 'seenAt'])
    if (!Number.isInteger(o[name]) || o[name] < 0)
      throw new Error(`bulk seed: ${name} must be a whole number, got ${o[name]}`);
  if (o.logDays < 1) throw new Error('bulk seed: logDays must be at least 1');
  if (!(o.boundShare >= 0 && o.boundShare <= 1))
    throw new Error(`bulk seed: boundShare must be 0..1, got ${o.boundShare}`);
  return o;
}

/**
 * The keys, in the order they get their ids: every 1/boundShare-th one is bound to site-<i>.fr
 * (as bench/run.mjs binds every second one), the others fresh.
 */
function makeKeys({ keys, boundShare }) {
  const rows = [];
  const bound = [];
  const fresh = [];
  let boundSoFar = 0;
  for (let i = 0; i < keys; i++) {
    const cle = generateKey((n) => randomBytes(n));
    const normal = normalizeKey(cle);
    // Spread the bound keys evenly: bind when the share so far falls behind boundShare.
    const domain = boundSoFar < boundShare * (i + 1) ? `site-${i}.fr` : null;
    if (domain === null) fresh.push({ cle });
    else {
      bound.push({ cle, domain });
      boundSoFar++;
    }
    rows.push({ hash: createHash('sha256').update(normal, 'utf8').digest('hex'), hint: keyHint(normal), domain });
  }
  return { rows, bound, fresh };
}

/**
 * One log line as SQL over its row number `n` (0 .. logRows - 1), the same in both dialects
 * (integer division in both): `k` the key's index among the seeded keys.
 */
function lineSql(o, { firstId, keys }) {
  const start = o.now - o.logDays * DAY;
  const span = o.logDays * DAY;
  const at = `(${start} + (n * ${span}) / ${Math.max(o.logRows, 1)})`;
  const known = '(n % 5 <> 4)';
  const k = `((n / 5) % ${keys})`;
  const bucket = `(((n / 5) * 37 + (${at} / ${DAY}) * 13) % 100)`;
  return `SELECT ${at},
    CASE WHEN ${known} THEN ${firstId} + ${k} END,
    CASE WHEN ${known} THEN 'www.site-' || ${k} || '.fr' ELSE 'unknown-' || (n % 1000) || '.fr' END,
    '198.18.' || ((n / 7) % 512 / 256) || '.' || ((n / 7) % 256),
    CASE WHEN NOT ${known} THEN 'inconnue' WHEN ${bucket} < 93 THEN 'ok' WHEN ${bucket} < 97 THEN 'essai'
      WHEN ${bucket} < 99 THEN 'autre_domaine'
      ELSE (CASE (n / 500) % 4 WHEN 0 THEN 'expiree' WHEN 1 THEN 'revocation' WHEN 2 THEN 'transfert' ELSE 'regeneration' END) END`;
}

// The product's keys: the log names them by arithmetic on the first id, so they must follow on.
const KEY_SPAN = 'SELECT min(id) AS first, max(id) AS last, count(*) AS n FROM keys WHERE product_id = ?';

/** The keys the log lines name: the ones just seeded, or with `keys: 0` the product's keys already there. */
function logKeys(o, firstId, span) {
  if (o.keys > 0) return { firstId, keys: o.keys };
  const [first, last, n] = [Number(span.first), Number(span.last), Number(span.n)];
  if (n === 0) throw new Error(`bulk seed: product ${o.product} has no keys for the log to name`);
  if (last - first + 1 !== n) throw new Error(`bulk seed: the keys of ${o.product} are not consecutive ids`);
  return { firstId: first, keys: n };
}

const LOG_COLUMNS = 'INSERT INTO request_log (at, key_id, host, ip, outcome)';
// The counts logRequest would have kept: the known keys' lines, per UTC day and outcome.
const countsSql = (product, from) =>
  `INSERT INTO activity_days (product_id, day, outcome, count)
   SELECT '${product}', at / ${DAY}, outcome, count(*) FROM request_log
    WHERE key_id IS NOT NULL AND id >= ${from} GROUP BY at / ${DAY}, outcome
   ON CONFLICT (product_id, day, outcome) DO UPDATE SET count = activity_days.count + excluded.count`;

const productRow = (o) => ({
  id: o.product,
  author: 'atelier',
  name: 'Theme',
  createdAt: o.now - 400 * DAY,
  staging: [],
});

/** SQLite: the store migrates the file; then one transaction of prepared inserts and a recursive CTE for the log. */
export async function seedSqlite(file, options) {
  const o = settle(options);
  const started = performance.now();
  const store = openSqliteStore({ file });
  await store.addProduct(productRow(o)); // 'exists' when it is there already
  await store.close();
  const made = makeKeys(o);
  const db = new Database(file);
  // A seed is re-made on failure: no need to survive a power cut meanwhile.
  db.pragma('synchronous = OFF');
  const firstId = db.prepare('SELECT coalesce(max(id), 0) + 1 AS id FROM keys').get().id;
  const insertKey = db.prepare(
    "INSERT INTO keys (id, hash, hint, product_id, kind, sites, created_at, lineage) VALUES (?, ?, ?, ?, 'buyer', 1, ?, ?)",
  );
  const insertDomain = db.prepare(
    'INSERT INTO bound_domains (key_id, domain, position, first_seen, last_seen) VALUES (?, ?, 0, ?, ?)',
  );
  db.transaction(() => {
    made.rows.forEach((row, i) => {
      const id = firstId + i;
      insertKey.run(id, row.hash, row.hint, o.product, o.now - 400 * DAY, id);
      if (row.domain !== null) insertDomain.run(id, row.domain, o.now - 200 * DAY, o.seenAt);
    });
  })();
  const keysSeconds = (performance.now() - started) / 1000;
  if (o.logRows > 0) {
    const span = logKeys(o, firstId, db.prepare(KEY_SPAN).get(o.product));
    const from = db.prepare('SELECT coalesce(max(id), 0) + 1 AS id FROM request_log').get().id;
    const series = `WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < ${o.logRows - 1})`;
    db.transaction(() => {
      db.exec(`${LOG_COLUMNS} ${series} ${lineSql(o, span)} FROM s`);
      db.exec(countsSql(o.product, from));
    })();
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const seconds = (performance.now() - started) / 1000;
  return { bound: made.bound, fresh: made.fresh, seconds, keysSeconds, logSeconds: seconds - keysSeconds };
}

/** The keys and their bound domains, in chunks of unnest arrays; answers the first key's id. */
async function insertKeysPostgres(client, o, rows) {
  // The identity's sequence gives the ids, as the store's insertNewKey draws them.
  const firstId = Number(
    (
      await client.query(
        `SELECT setval(pg_get_serial_sequence('keys', 'id'), nextval(pg_get_serial_sequence('keys', 'id')) + $1 - 1) - $1 + 1 AS id`,
        [o.keys],
      )
    ).rows[0].id,
  );
  for (let from = 0; from < rows.length; from += PG_CHUNK) {
    const chunk = rows.slice(from, from + PG_CHUNK);
    const ids = chunk.map((_, i) => firstId + from + i);
    await client.query(
      `INSERT INTO keys (id, hash, hint, product_id, kind, sites, created_at, lineage) OVERRIDING SYSTEM VALUE
         SELECT t.id, t.hash, t.hint, $4, 'buyer', 1, $5, t.id FROM unnest($1::bigint[], $2::text[], $3::text[]) AS t(id, hash, hint)`,
      [ids, chunk.map((r) => r.hash), chunk.map((r) => r.hint), o.product, o.now - 400 * DAY],
    );
    const boundIds = ids.filter((_, i) => chunk[i].domain !== null);
    await client.query(
      `INSERT INTO bound_domains (key_id, domain, position, first_seen, last_seen)
         SELECT t.id, t.domain, 0, $3, $4 FROM unnest($1::bigint[], $2::text[]) AS t(id, domain)`,
      [boundIds, chunk.filter((r) => r.domain !== null).map((r) => r.domain), o.now - 200 * DAY, o.seenAt],
    );
  }
  return firstId;
}

/** PostgreSQL: the store migrates the database; then unnest arrays for the keys, generate_series for the log. */
export async function seedPostgres(url, options) {
  const o = settle(options);
  const started = performance.now();
  const backend = await openPostgres({ connectionString: url });
  await backend.store.addProduct(productRow(o)); // 'exists' when it is there already
  await backend.close();
  const made = makeKeys(o);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SET synchronous_commit = off');
    await client.query('BEGIN');
    const firstId = o.keys === 0 ? 0 : await insertKeysPostgres(client, o, made.rows);
    await client.query('COMMIT');
    const keysSeconds = (performance.now() - started) / 1000;
    if (o.logRows > 0) {
      await client.query('BEGIN');
      const from = Number((await client.query('SELECT coalesce(max(id), 0) + 1 AS id FROM request_log')).rows[0].id);
      const span = logKeys(o, firstId, (await client.query(KEY_SPAN.replace('?', '$1'), [o.product])).rows[0]);
      await client.query(
        `${LOG_COLUMNS} ${lineSql(o, span)} FROM generate_series(0::bigint, ${o.logRows - 1}) AS s(n)`,
      );
      await client.query(countsSql(o.product, from));
      await client.query('COMMIT');
    }
    // A live database was vacuumed as it grew: done here, so autovacuum's first pass over the
    // fresh rows does not take a core during a measurement; and the planner's statistics.
    await client.query('VACUUM ANALYZE keys');
    await client.query('VACUUM ANALYZE bound_domains');
    await client.query('VACUUM ANALYZE request_log');
    await client.query('VACUUM ANALYZE activity_days');
    const seconds = (performance.now() - started) / 1000;
    return { bound: made.bound, fresh: made.fresh, seconds, keysSeconds, logSeconds: seconds - keysSeconds };
  } finally {
    await client.end();
  }
}
