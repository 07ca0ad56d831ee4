// What one logged request costs on disk (docs/protocol.md#storage), SQLite and PostgreSQL.
// After `pnpm build`: `pnpm --filter @licence/koa-server bench:log-size [rows]` (default 200,000).
// Not a test: a measurement, printed.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The repository root, wherever this is run from.
const root = join(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const load = (path) => import(pathToFileURL(join(root, path)).href);
const { openSqliteStore } = await load('packages/store-sqlite/dist/index.js');
const { openPostgresStore } = await load('packages/store-postgres/dist/index.js');
const { startPostgres, findPostgresBinDir } = await load('tooling/pg-cluster/dist/index.js');
const Database = createRequire(join(root, 'packages/store-sqlite/package.json'))('better-sqlite3');
const pg = createRequire(join(root, 'packages/store-postgres/package.json'))('pg');

const ROWS = Number(process.argv[2] ?? 200_000);
const KEYS = 2000;
const START = Date.UTC(2025, 0, 1) / 1000;

// Deterministic pseudo-random (mulberry32), so two runs log the same rows.
let seed = 42;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(rand() * list.length)];
const words = [
  'boutique',
  'atelier',
  'maison',
  'studio',
  'agence',
  'cabinet',
  'librairie',
  'fromagerie',
  'theme',
  'blog',
];
const tlds = ['fr', 'com', 'de', 'be', 'ch', 'net', 'org', 'co.uk', 'it', 'es'];
const prefixes = ['', '', 'www.', 'shop.', 'dev.'];
// One host per key (a shop), as products send it: a registrable domain, often with www.
const hostOf = Array.from(
  { length: KEYS },
  (_, i) => `${pick(prefixes)}${pick(words)}-${pick(words)}${i}.${pick(tlds)}`,
);
const ipv4 = () =>
  `${1 + Math.floor(rand() * 223)}.${Math.floor(rand() * 256)}.${Math.floor(rand() * 256)}.${Math.floor(rand() * 256)}`;

/**
 * 80% of calls come from a known key (its host; mostly `ok`, some `essai` and `autre_domaine`,
 * counted for its product: docs/protocol.md#activity), 20% from unknown keys (key null, `inconnue`,
 * counted nowhere).
 */
function* entries(keyIds) {
  const knownOutcome = () => {
    const r = rand();
    return r < 0.95 ? 'ok' : r < 0.98 ? 'essai' : 'autre_domaine';
  };
  for (let i = 0; i < ROWS; i += 1) {
    const k = Math.floor(rand() * KEYS);
    const known = rand() < 0.8;
    yield {
      at: START + Math.floor((i * 365 * 86400) / ROWS),
      keyId: known ? keyIds[k] : null,
      host: known ? hostOf[k] : `${pick(words)}${Math.floor(rand() * 1e5)}.${pick(tlds)}`,
      ip: ipv4(),
      outcome: known ? knownOutcome() : 'inconnue',
      produit: known ? 'theme' : null,
    };
  }
}

async function seedKeys(store) {
  await store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: START, staging: [] });
  const ids = [];
  for (let i = 0; i < KEYS; i += 1) {
    const r = await store.insertKey({
      hash: i.toString(16).padStart(64, '0'),
      hint: 'AB12',
      produit: 'theme',
      kind: 'buyer',
      sites: 1,
      expiresAt: null,
      createdAt: START,
    });
    ids.push(r.id);
  }
  return ids;
}

/** Logs every entry through the store's hot path, 500 in flight (group commit / batches). */
async function logAll(store, keyIds) {
  let inFlight = [];
  for (const entry of entries(keyIds)) {
    inFlight.push(store.logRequest(entry));
    if (inFlight.length === 500) {
      await Promise.all(inFlight);
      inFlight = [];
    }
  }
  await Promise.all(inFlight);
}

const fmt = (n) => n.toLocaleString('en-US');

async function sqlite() {
  const dir = mkdtempSync(join(tmpdir(), 'licence-size-'));
  const file = join(dir, 'licence.db');
  const store = openSqliteStore({ file });
  const keyIds = await seedKeys(store);
  await store.close();
  const emptySize = statSync(file).size;
  const again = openSqliteStore({ file });
  seed = 42;
  await logAll(again, keyIds);
  await again.close(); // closing checkpoints and removes the WAL
  const size = statSync(file).size;
  const db = new Database(file, { readonly: true });
  const stat = db
    .prepare(
      "SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name IN ('request_log', 'request_log_at') GROUP BY name",
    )
    .all();
  const avg = db.prepare('SELECT avg(length(host)) AS host, avg(length(ip)) AS ip FROM request_log').get();
  db.close();
  const rw = new Database(file);
  const t = Date.now();
  rw.exec('VACUUM');
  const vacuumMs = Date.now() - t;
  rw.close();
  console.log(`SQLite: ${fmt(ROWS)} rows; average host ${avg.host.toFixed(1)} chars, ip ${avg.ip.toFixed(1)} chars`);
  console.log(`  file growth ${fmt(size - emptySize)} bytes = ${((size - emptySize) / ROWS).toFixed(1)} bytes/row`);
  for (const row of stat)
    console.log(`  ${row.name}: ${fmt(row.bytes)} bytes = ${(row.bytes / ROWS).toFixed(1)} bytes/row`);
  console.log(`  VACUUM of the ${(size / 1e6).toFixed(1)} MB file: ${vacuumMs} ms`);
  rmSync(dir, { recursive: true, force: true });
}

async function postgres() {
  const binDir = await findPostgresBinDir(process.env);
  const cluster = await startPostgres({ binDir });
  try {
    const url = await cluster.createDatabase();
    const store = await openPostgresStore({ connectionString: url });
    const keyIds = await seedKeys(store);
    seed = 42;
    await logAll(store, keyIds);
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('VACUUM ANALYZE request_log');
    const { rows } = await client.query(
      "SELECT pg_relation_size('request_log') AS heap, pg_total_relation_size('request_log') AS total, pg_relation_size('request_log_pkey') AS pkey, pg_relation_size('request_log_at') AS at_index",
    );
    const r = rows[0];
    console.log(`PostgreSQL: ${fmt(ROWS)} rows`);
    for (const [name, bytes] of Object.entries(r))
      console.log(`  ${name}: ${fmt(Number(bytes))} bytes = ${(Number(bytes) / ROWS).toFixed(1)} bytes/row`);
    let t = Date.now();
    await client.query('DROP INDEX request_log_at');
    await client.query('CREATE INDEX request_log_at ON request_log (at)');
    console.log(`  CREATE INDEX request_log_at over ${fmt(ROWS)} rows: ${Date.now() - t} ms`);
    const rebuilt = Number((await client.query("SELECT pg_relation_size('request_log_at') AS n")).rows[0].n);
    console.log(`  request_log_at rebuilt: ${fmt(rebuilt)} bytes = ${(rebuilt / ROWS).toFixed(1)} bytes/row`);
    t = Date.now();
    const purged = await client.query('DELETE FROM request_log WHERE at < $1', [START + 182 * 86400]);
    const deleteMs = Date.now() - t;
    t = Date.now();
    await client.query('VACUUM request_log');
    console.log(
      `  DELETE of ${fmt(purged.rowCount)} rows: ${deleteMs} ms; VACUUM after it: ${Date.now() - t} ms; total size after: ${fmt(Number((await client.query("SELECT pg_total_relation_size('request_log') AS n")).rows[0].n))} bytes`,
    );
    await client.end();
  } finally {
    await cluster.stop();
  }
}

await sqlite();
await postgres();
