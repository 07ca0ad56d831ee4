// How fast `GET /admin/products/:id/activity` answers (docs/protocol.md#activity) for a product
// with a year of history, on SQLite and on PostgreSQL, through the real Koa server over loopback.
// After `pnpm build`: `pnpm --filter @licence/koa-server bench:activity [verdicts per day]`
// (default 10,000). Exits 1 when the p99 of `days=366` is 50 ms or more on either store.
// Not a test: a measurement, printed. Without PostgreSQL binaries that store is SKIPPED loudly.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { generateKey, normalizeKey } from '@licence/core';
import { findPostgresBinDir, startPostgres } from '@licence/pg-cluster';
import { createMemoryRateLimiter, createNodeSigner, createService, readServiceConfig } from '@licence/service';
import { openPostgres } from '@licence/store-postgres';
import { openSqliteStore } from '@licence/store-sqlite';
import { createHttpServer } from '../dist/index.js';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const Database = createRequire(join(root, 'packages/store-sqlite/package.json'))('better-sqlite3');
const pg = createRequire(join(root, 'packages/store-postgres/package.json'))('pg');

const PER_DAY = Number(process.argv[2] ?? 10_000);
if (!Number.isInteger(PER_DAY) || PER_DAY < 100 || PER_DAY % 100 !== 0)
  throw new Error(`verdicts per day: a whole multiple of 100, got ${process.argv[2]}`);
const DAYS = 366;
const KEYS = 1000; // per product
const WARM_UP = 20;
const CALLS = 500;
const RANGES = [366, 90, 30];
const LIMIT_MS = 50;
// The measured product, and a second one with the same traffic the read must leave aside.
const PRODUCTS = [
  { id: 'theme', author: 'atelier', name: 'Theme' },
  { id: 'plugin', author: 'atelier', name: 'Plugin' },
];
// The UTC day, as the store counts it. A run across midnight (UTC) fails its exact checks: run again.
const TODAY = Math.floor(Date.now() / 86_400_000);
const FIRST_DAY = TODAY - (DAYS - 1);
const ADMIN_TOKEN = randomBytes(32).toString('hex');
const silent = { debug() {}, info() {}, warn() {}, error: (fields, message) => console.error(message, fields) };
const fmt = (n) => n.toLocaleString('en-US');

/**
 * The seeded rows, as SQL over a row number `n` (0 .. DAYS * PER_DAY - 1) of one product, the
 * same in both dialects: PER_DAY verdicts a day spread over the day, each of the KEYS keys in
 * turn (its shop's host and address). Outcomes per day: 93% ok, 4% essai (a test host), 2%
 * autre_domaine, 1% the other refusals a known key gets (expiree, revocation, transfert,
 * regeneration); `(i * 37 + day * 13) % 100` is a permutation of each hundred, so the mix is exact.
 */
function rowSql(n, firstKeyId) {
  const day = `(${FIRST_DAY} + ${n} / ${PER_DAY})`;
  const i = `(${n} % ${PER_DAY})`;
  const k = `(${n} % ${KEYS})`;
  const bucket = `((${i} * 37 + ${day} * 13) % 100)`;
  return {
    at: `(${day} * 86400 + ${i} * 86400 / ${PER_DAY})`,
    keyId: `(${firstKeyId} + ${k})`,
    host: `'www.shop-' || ${k} || '.fr'`,
    ip: `'198.18.' || (${k} / 256) || '.' || (${k} % 256)`,
    outcome: `CASE WHEN ${bucket} < 93 THEN 'ok' WHEN ${bucket} < 97 THEN 'essai' WHEN ${bucket} < 99 THEN 'autre_domaine'
      ELSE (CASE (${i} / 100) % 4 WHEN 0 THEN 'expiree' WHEN 1 THEN 'revocation' WHEN 2 THEN 'transfert' ELSE 'regeneration' END) END`,
  };
}

/** The same mix counted in JS: what the activity counts of one product must add up to, per outcome. */
function expectedMix() {
  const mix = {};
  for (let day = FIRST_DAY; day <= TODAY; day += 1) {
    for (let i = 0; i < PER_DAY; i += 1) {
      const bucket = (i * 37 + day * 13) % 100;
      const other = ['expiree', 'revocation', 'transfert', 'regeneration'][Math.floor(i / 100) % 4];
      const outcome = bucket < 93 ? 'ok' : bucket < 97 ? 'essai' : bucket < 99 ? 'autre_domaine' : other;
      mix[outcome] = (mix[outcome] ?? 0) + 1;
    }
  }
  return mix;
}

const INSERT_COLUMNS = 'INSERT INTO request_log (at, key_id, host, ip, outcome)';
const select = (row) => `SELECT ${row.at}, ${row.keyId}, ${row.host}, ${row.ip}, ${row.outcome}`;
// The counts `logRequest` would have kept for these lines (per product, UTC day, outcome).
const COUNTS_SQL = `INSERT INTO activity_days (product_id, day, outcome, count)
  SELECT k.product_id, r.at / 86400, r.outcome, count(*) FROM request_log r JOIN keys k ON k.id = r.key_id
  GROUP BY k.product_id, r.at / 86400, r.outcome`;
const MIX_SQL = 'SELECT product_id, outcome, sum(count) AS n FROM activity_days GROUP BY product_id, outcome';

/** Every product and its KEYS keys through the store port; answers each product's first key id and two usable keys. */
async function seedKeys(store) {
  const firstKeyIds = [];
  const usable = [];
  for (const product of PRODUCTS) {
    await store.addProduct({ ...product, createdAt: FIRST_DAY * 86400, staging: [] });
    const ids = [];
    for (let k = 0; k < KEYS; k += 1) {
      const cle = generateKey((n) => randomBytes(n));
      const normal = normalizeKey(cle);
      const key = {
        hash: createHash('sha256').update(normal).digest('hex'),
        hint: normal.slice(-4),
        produit: product.id,
        kind: 'buyer',
        sites: 1,
        expiresAt: null,
        createdAt: FIRST_DAY * 86400,
      };
      const created = await store.insertKey(key);
      if (created.result !== 'created') throw new Error(`insertKey: ${created.result}`);
      ids.push(Number(created.id));
      if (product === PRODUCTS[0] && k < 2) usable.push(cle);
    }
    // The bulk SQL names keys by arithmetic on the first id: one by one, the ids follow on.
    if (ids.some((id, k) => id !== ids[0] + k)) throw new Error('key ids of one product are not consecutive');
    firstKeyIds.push(ids[0]);
  }
  return { firstKeyIds, usable };
}

/** Fails unless each product's counts add up, outcome by outcome, to the rows seeded for it. */
function checkMix(rows) {
  const want = expectedMix();
  for (const product of PRODUCTS) {
    let total = 0;
    for (const [outcome, n] of Object.entries(want)) {
      const got = Number(rows.find((r) => r.product_id === product.id && r.outcome === outcome)?.n ?? 0);
      if (got !== n) throw new Error(`${product.id} ${outcome}: ${got} counted, ${n} seeded`);
      total += got;
    }
    if (total !== DAYS * PER_DAY) throw new Error(`${product.id}: ${total} counted, ${DAYS * PER_DAY} seeded`);
  }
  return want;
}

/** SQLite: one transaction, one INSERT ... SELECT over a recursive series per product, then the counts. */
function bulkSqlite(file, firstKeyIds) {
  const db = new Database(file);
  const rows = DAYS * PER_DAY;
  db.transaction(() => {
    for (const firstKeyId of firstKeyIds) {
      const series = `WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < ${rows - 1})`;
      db.exec(`${INSERT_COLUMNS} ${series} ${select(rowSql('n', firstKeyId))} FROM s`);
    }
    db.exec(COUNTS_SQL);
  })();
  const mix = db.prepare(MIX_SQL).all();
  db.close();
  return checkMix(mix);
}

/** PostgreSQL: one transaction, one INSERT ... SELECT over generate_series per product, then the counts. */
async function bulkPostgres(url, firstKeyIds) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const firstKeyId of firstKeyIds) {
      const series = `FROM generate_series(0::bigint, ${DAYS * PER_DAY - 1}) AS s(n)`;
      await client.query(`${INSERT_COLUMNS} ${select(rowSql('n', firstKeyId))} ${series}`);
    }
    await client.query(COUNTS_SQL);
    await client.query('COMMIT');
    // A year's log was vacuumed as it grew: done here, so autovacuum's first pass over millions
    // of fresh rows does not take a core during the timing; and the planner's statistics.
    await client.query('VACUUM ANALYZE request_log');
    await client.query('VACUUM ANALYZE activity_days');
    return checkMix((await client.query(MIX_SQL)).rows);
  } finally {
    await client.end();
  }
}

/** The server as `licence serve` builds it (open-runtime.ts, start-server.ts), on 127.0.0.1:0. */
async function serve(store, rateLimiter) {
  const service = createService({
    store,
    rateLimiter,
    clock: { now: () => Date.now() },
    signer: createNodeSigner(randomBytes(32)),
    logger: silent,
    random: (n) => randomBytes(n),
    adminToken: ADMIN_TOKEN,
  });
  const limits = { maxConnections: 1000, maxConnectionsPerIp: 100 };
  // No TRUST_PROXY: each connection counts under its peer's address (ServiceConfig's clientAddress).
  const read = readServiceConfig({}, '/', { only: ['clientAddress'] });
  if (!read.ok) throw new Error('the default configuration did not read');
  const { connectionKey } = read.value.clientAddress;
  const { server, stats } = createHttpServer({ service, logger: silent, limits, connectionKey });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const close = async () => {
    agent.destroy();
    stats.stop();
    await new Promise((resolve) => server.close(resolve));
  };
  return { port: server.address().port, agent, close };
}

/** One HTTP call over the keep-alive agent: status, body text and the milliseconds to its last byte. */
function call(server, method, path, body) {
  const started = performance.now();
  const headers = { 'user-agent': 'LicenceBench/1.0' };
  if (path.startsWith('/admin')) headers.authorization = `Bearer ${ADMIN_TOKEN}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, agent: server.agent, method, path, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          text: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - started,
        }),
      );
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function activity(server, productId, days) {
  const answer = await call(server, 'GET', `/admin/products/${productId}/activity?days=${days}`);
  if (answer.status !== 200) throw new Error(`activity ${productId} days=${days}: ${answer.status} ${answer.text}`);
  return JSON.parse(answer.text);
}

/** The answer of days=366 holds every seeded verdict, exactly: 366 days, today last. */
async function checkAnswer(server, want) {
  const body = await activity(server, PRODUCTS[0].id, DAYS);
  const today = new Date(TODAY * 86_400_000).toISOString().slice(0, 10);
  if (body.product !== PRODUCTS[0].id || body.days.length !== DAYS || body.days.at(-1).date !== today)
    throw new Error(`activity days=366: not the product's ${DAYS} days ending ${today}`);
  const sum = (key) => body.days.reduce((total, day) => total + (day[key] ?? 0), 0);
  const refusals = (motif) => body.days.reduce((total, day) => total + (day.refusals[motif] ?? 0), 0);
  for (const [outcome, n] of Object.entries(want)) {
    const got = outcome === 'ok' || outcome === 'essai' ? sum(outcome) : refusals(outcome);
    if (got !== n) throw new Error(`activity days=366 ${outcome}: ${got} answered, ${n} seeded`);
  }
}

const todayOf = async (server, productId) => (await activity(server, productId, 1)).days[0];

/**
 * The real path agrees with the seeding: verdicts sent to the public API add to today's counts
 * of their product (ok, essai on a test host, autre_domaine past the key's one site), not the other's.
 */
async function checkRealPath(server, usable) {
  const before = await todayOf(server, PRODUCTS[0].id);
  const other = await todayOf(server, PRODUCTS[1].id);
  const sent = [
    { cle: usable[0], url: 'https://www.shop-0.fr/' },
    { cle: usable[0], url: 'https://www.shop-0.fr/panier' },
    { cle: usable[0], url: 'https://ailleurs.fr/' },
    { cle: usable[1], url: 'http://localhost:8080/' },
  ];
  for (const body of sent) {
    const answer = await call(server, 'POST', '/api/licence', body);
    if (answer.status !== 200) throw new Error(`verdict: ${answer.status} ${answer.text}`);
  }
  const want = { ok: before.ok + 2, essai: before.essai + 1, autre: (before.refusals.autre_domaine ?? 0) + 1 };
  // The log line and its count may be written in a batch just after the answer.
  for (let tries = 0; ; tries += 1) {
    const after = await todayOf(server, PRODUCTS[0].id);
    const got = { ok: after.ok, essai: after.essai, autre: after.refusals.autre_domaine ?? 0 };
    if (JSON.stringify(got) === JSON.stringify(want)) break;
    if (tries === 50) throw new Error(`real path: today ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (JSON.stringify(await todayOf(server, PRODUCTS[1].id)) !== JSON.stringify(other))
    throw new Error(`real path: ${PRODUCTS[1].id} counted verdicts of ${PRODUCTS[0].id}`);
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

/** WARM_UP calls, then CALLS sequential ones per range; answers p50, p95, p99 and max per range. */
async function time(server) {
  const results = [];
  for (const days of RANGES) {
    const path = `/admin/products/${PRODUCTS[0].id}/activity?days=${days}`;
    for (let n = 0; n < WARM_UP; n += 1) await call(server, 'GET', path);
    const times = [];
    for (let n = 0; n < CALLS; n += 1) {
      const answer = await call(server, 'GET', path);
      if (answer.status !== 200) throw new Error(`activity days=${days}: ${answer.status}`);
      times.push(answer.ms);
    }
    times.sort((a, b) => a - b);
    const [p50, p95, p99] = [0.5, 0.95, 0.99].map((p) => percentile(times, p));
    results.push({ days, p50, p95, p99, max: times.at(-1) });
  }
  return results;
}

/** Seeds, checks, serves and times one store; `open` answers { store, rateLimiter, close }. */
async function measure(name, open, bulk) {
  const started = performance.now();
  let backend = await open();
  const { firstKeyIds, usable } = await seedKeys(backend.store);
  const keysMs = performance.now() - started;
  await backend.close(); // the bulk seeding writes beside the store, on its own connection
  const want = await bulk(firstKeyIds);
  const seedMs = performance.now() - started - keysMs;
  backend = await open();
  const server = await serve(backend.store, backend.rateLimiter);
  try {
    await checkAnswer(server, want);
    await checkRealPath(server, usable);
    console.log(
      `${name}: the year's counts answered exactly; 4 verdicts sent to POST /api/licence added ok +2, essai +1, autre_domaine +1 to today's count of ${PRODUCTS[0].id}, nothing to ${PRODUCTS[1].id}`,
    );
    return { name, keysMs, seedMs, results: await time(server) };
  } finally {
    await server.close();
    await backend.close();
  }
}

async function sqlite() {
  const dir = mkdtempSync(join(tmpdir(), 'licence-activity-'));
  const file = join(dir, 'licence.db');
  const open = async () => {
    const store = openSqliteStore({ file, logger: silent });
    return { store, rateLimiter: createMemoryRateLimiter(), close: () => store.close() };
  };
  try {
    return await measure('SQLite', open, async (ids) => bulkSqlite(file, ids));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres(binDir) {
  const cluster = await startPostgres({ binDir });
  try {
    const open = () => openPostgres({ connectionString: cluster.url, logger: silent });
    return await measure('PostgreSQL', open, (ids) => bulkPostgres(cluster.url, ids));
  } finally {
    await cluster.stop();
  }
}

// The machine's load: other processes' turns on the cores show in the tail of the timings.
const load = () => `load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores`;

function report(runs, loadBefore) {
  const ms = (value) => value.toFixed(2);
  console.log(
    `\n${fmt(PER_DAY)} verdicts a day for ${DAYS} days ending today (UTC), two products of ${fmt(KEYS)} keys`,
  );
  console.log(`${loadBefore} at the start, ${load()} at the end; Node ${process.version}`);
  for (const run of runs)
    console.log(
      `${run.name}: ${fmt(2 * KEYS)} keys through the store ${(run.keysMs / 1000).toFixed(1)} s; ${fmt(2 * DAYS * PER_DAY)} log lines and their counts ${(run.seedMs / 1000).toFixed(1)} s`,
    );
  console.log(`\n${WARM_UP} warm-up calls, then ${CALLS} sequential calls per range over one keep-alive connection`);
  console.log('| store | range | p50 ms | p95 ms | p99 ms | max ms |');
  console.log('|---|---|---|---|---|---|');
  for (const run of runs)
    for (const r of run.results)
      console.log(`| ${run.name} | days=${r.days} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${ms(r.max)} |`);
  const worst = Math.max(...runs.map((run) => run.results.find((r) => r.days === DAYS).p99));
  const under = worst < LIMIT_MS;
  console.log(
    `\nactivity p99 under ${LIMIT_MS} ms: ${under ? 'yes' : 'no'} (worst p99 of days=${DAYS}: ${ms(worst)} ms)`,
  );
  return under;
}

const loadBefore = load();
const runs = [await sqlite()];
const binDir = await findPostgresBinDir();
if (binDir === null)
  console.warn('PostgreSQL binaries not found: PostgreSQL is SKIPPED (install postgresql or set PG_BIN_DIR)');
else runs.push(await postgres(binDir));
process.exitCode = report(runs, loadBefore) ? 0 : 1;
