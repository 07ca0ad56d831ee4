// `pnpm bench:limiter` in apps/koa-server, after `pnpm build` (a report, not a test): the rate limit
// of docs/protocol.md#rate-limit with LICENCE_WORKERS, measured.
// Part a, sharing one exact limit between 2 worker processes (node:cluster, as `licence serve`):
// - local: a reference that does not share (each worker its own memory limiter: 60 allowed);
// - ipc: the primary's memory limiter over cluster IPC (createPrimaryRateLimiter and
//   createWorkerRateLimiter, what the server runs on SQLite);
// - sqlite-hit, sqlite-turn: a prototype, not in the server: a window table in the service's SQLite
//   file, written by both workers, one BEGIN IMMEDIATE per hit or per event-loop turn;
// - postgres: @licence/store-postgres's limiter on a throwaway cluster (what DATABASE_URL runs).
// For each: exactness (both workers send LIMITER_EXACT hits each from one address at once: exactly
// 30 must be allowed), then load (both workers at once, LIMITER_IN_FLIGHT hits in flight each, for
// LIMITER_SECONDS, from 100,000 addresses): hits/s, CPU µs per hit in the workers and in the sharer
// (the primary, or PostgreSQL's processes), latency p50/p99/max.
// Part b, memory: bench/limiter-memory.mjs (node --expose-gc) at LIMITER_SIZES addresses, and
// PostgreSQL's rate_limit_windows size per address at LIMITER_PG_SIZES.
// Environment: LIMITER_WAYS (local,ipc,sqlite-hit,sqlite-turn,postgres), LIMITER_SECONDS (3),
// LIMITER_IN_FLIGHT (50), LIMITER_EXACT (100), LIMITER_SIZES (10000,100000,1000000),
// LIMITER_PG_SIZES (10000,100000,1000000; empty skips). Exits 1 when a shared way is not exact.
// The workers are not pinned: on 2 cores they share them with the primary (and PostgreSQL).
import cluster from 'node:cluster';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgresBinDir, startPostgres } from '@licence/pg-cluster';
import { formatIpv4 } from '@licence/core';
import { createPostgresRateLimiter } from '@licence/store-postgres';
import { openSqliteStore } from '@licence/store-sqlite';
import { createPrimaryRateLimiter } from '../dist/index.js';
import { cpuMs, postgresPids } from './proc-stats.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const env = (name, fallback) => process.env[name] ?? fallback;
const numbers = (name, fallback) =>
  env(name, fallback)
    .split(',')
    .filter(Boolean)
    .map((v) => {
      const n = Number(v.replaceAll('_', ''));
      if (!Number.isInteger(n) || n < 1) throw new Error(`${name}: whole numbers >= 1, got ${v}`);
      return n;
    });
const settings = {
  ways: env('LIMITER_WAYS', 'local,ipc,sqlite-hit,sqlite-turn,postgres').split(','),
  seconds: numbers('LIMITER_SECONDS', '3')[0],
  inFlight: numbers('LIMITER_IN_FLIGHT', '50')[0],
  exact: numbers('LIMITER_EXACT', '100')[0],
  sizes: numbers('LIMITER_SIZES', '10000,100000,1000000'),
  pgSizes: numbers('LIMITER_PG_SIZES', '10000,100000,1000000'),
};

async function main() {
  console.log(`limiter: ${JSON.stringify(settings)}; ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'})`);
  const dir = mkdtempSync(join(tmpdir(), 'licence-limiter-'));
  const binDir = await findPostgresBinDir();
  if (binDir === null) console.warn('PostgreSQL binaries not found: the postgres way is SKIPPED (set PG_BIN_DIR)');
  const pg = binDir === null ? null : await startPostgres({ binDir });
  const psql = (url, sql) => spawnSync(join(binDir, 'psql'), [url, '-Atqc', sql], { encoding: 'utf8' }).stdout.trim();
  let inexact = false;
  try {
    const places = { sqlite: sqliteFile(dir), postgres: pg === null ? null : await migrated(pg.url) };
    console.log('\n## Sharing one limit between 2 workers\n');
    console.log(
      '| way | allowed of 2x' +
        settings.exact +
        ' (30 exact) | hits/s | worker CPU µs/hit | sharer CPU µs/hit | p50 ms | p99 ms | max ms |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const [i, way] of settings.ways.entries()) {
      const db = way.startsWith('sqlite') ? places.sqlite : way === 'postgres' ? places.postgres : null;
      if (way === 'postgres' && db === null) continue;
      const row = await measureWay(way, db, pg, i);
      inexact ||= way !== 'local' && row.allowed !== 30;
      console.log(
        `| ${way} | ${row.allowed} | ${fmt(row.rate)} | ${row.workerUs.toFixed(1)} | ${row.sharerUs} | ${row.p50} | ${row.p99} | ${row.max} |`,
      );
    }
    await memory();
    if (pg !== null) await postgresSizes(pg.url, psql);
  } finally {
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  if (inexact) {
    console.error('a way did not allow exactly 30');
    process.exitCode = 1;
  }
}

/** The service's SQLite file (the store's schema and settings), with the prototype's table. */
function sqliteFile(dir) {
  const file = join(dir, 'licence.db');
  void openSqliteStore({ file }).close();
  // better-sqlite3 from the store's own dependencies: the server does not depend on it.
  const Database = createRequire(import.meta.resolve('@licence/store-sqlite'))('better-sqlite3');
  const db = new Database(file);
  db.exec('CREATE TABLE bench_rate_windows (client TEXT PRIMARY KEY, hits TEXT NOT NULL) WITHOUT ROWID');
  db.close();
  return file;
}

/** The limiter's schema, brought up once before the workers start. */
async function migrated(url) {
  const limiter = createPostgresRateLimiter({ connectionString: url });
  await limiter.hit('192.0.2.255', Date.now());
  await limiter.close();
  return url;
}

/** Two workers of one way: exactness, then load; the sharer's CPU over the load. */
async function measureWay(way, db, pg, index) {
  cluster.setupPrimary({ exec: join(here, 'limiter-worker.mjs') });
  const primary = createPrimaryRateLimiter();
  const workers = await Promise.all(
    [0, 1].map(async () => {
      const worker = cluster.fork({ LIMITER_WAY: way, LIMITER_DB: db ?? '' });
      if (way === 'ipc') primary.attach(worker);
      await reply(worker, 'ready');
      return worker;
    }),
  );
  try {
    const client = formatIpv4(0xc0000200 + index); // 192.0.2.0/24 (RFC 5737), one address a way
    const exact = await Promise.all(workers.map((w) => ask(w, { type: 'exact', client, count: settings.exact })));
    const sharerPids = way === 'ipc' ? [process.pid] : way === 'postgres' ? postgresPids(pg) : [];
    const cpuBefore = cpuMs(sharerPids);
    const loads = await Promise.all(
      workers.map((w, i) =>
        ask(w, {
          type: 'load',
          seconds: settings.seconds,
          inFlight: settings.inFlight,
          addresses: 100_000,
          offset: i * 50_000,
        }),
      ),
    );
    const sharerMs = cpuMs(sharerPids) - cpuBefore;
    const hits = loads.reduce((sum, l) => sum + l.hits, 0);
    // Asked after the sharer's CPU is read: receiving them costs this process.
    const answers = await Promise.all(workers.map((w) => ask(w, { type: 'latencies' })));
    const latencies = answers.flatMap((a) => a.latencies).sort((a, b) => a - b);
    const at = (q) =>
      ((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) / 1000).toFixed(2);
    return {
      allowed: exact.reduce((sum, e) => sum + e.allowed, 0),
      rate: hits / (Math.max(...loads.map((l) => l.elapsedMs)) / 1000),
      workerUs: (loads.reduce((sum, l) => sum + l.cpuMs, 0) * 1000) / hits,
      sharerUs: sharerPids.length === 0 ? '- (in the workers)' : ((sharerMs * 1000) / hits).toFixed(1),
      p50: at(0.5),
      p99: at(0.99),
      max: ((latencies.at(-1) ?? 0) / 1000).toFixed(2),
    };
  } finally {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise((resolve) => {
            w.once('exit', resolve);
            w.send({ type: 'stop' });
          }),
      ),
    );
  }
}

function reply(worker, type) {
  return new Promise((resolve) => {
    const onMessage = (message) => {
      if (message?.type !== type) return;
      worker.off('message', onMessage);
      resolve(message);
    };
    worker.on('message', onMessage);
  });
}

function ask(worker, message) {
  const answer = reply(worker, `${message.type}-done`);
  worker.send(message);
  return answer;
}

/** Part b: the memory limiter in its own process, with --expose-gc. */
async function memory() {
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', join(here, 'limiter-memory.mjs'), settings.sizes.join(',')],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (child.status !== 0) throw new Error(`limiter-memory.mjs failed (${child.status})`);
  const { memory: rows } = JSON.parse(child.stdout);
  console.log('\n## The memory limiter against distinct addresses in one window\n');
  console.log(
    '| addresses | hits each | heap MB | bytes/address | ns/hit | longest hit ms | swap a window later ms | swap two windows later ms | longest hit after it ms |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    console.log(
      `| ${fmt(r.addresses)} | ${r.hitsEach} | ${(r.heapBytes / 1e6).toFixed(1)} | ${r.bytesPerAddress} | ${fmt(r.nsPerHit)} | ${r.longestHitMs} | ${r.sweepKeepMs ?? '-'} | ${r.sweepDropMs ?? '-'} | ${r.longestAfterDropMs ?? '-'} |`,
    );
  }
}

/** Part b on PostgreSQL: rate_limit_windows's size per address after one (or 30) hits each. */
async function postgresSizes(url, psql) {
  if (settings.pgSizes.length === 0) return;
  console.log('\n## PostgreSQL rate_limit_windows against distinct addresses\n');
  console.log('| addresses | hits each | table MB | bytes/address | seconds to write |');
  console.log('| --- | --- | --- | --- | --- |');
  const cases = [...settings.pgSizes.map((n) => [n, 1]), [settings.pgSizes[0], 30]];
  for (const [count, each] of cases) {
    psql(url, 'TRUNCATE rate_limit_windows');
    const limiter = createPostgresRateLimiter({ connectionString: url });
    const started = Date.now();
    for (let round = 0; round < each; round += 1) {
      for (let from = 0; from < count; from += 5_000) {
        const batch = Array.from({ length: Math.min(5_000, count - from) }, (_, i) =>
          limiter.hit(formatIpv4(0x0a000000 + from + i), started + round),
        );
        await Promise.all(batch);
      }
    }
    const seconds = (Date.now() - started) / 1000;
    psql(url, 'VACUUM rate_limit_windows');
    const bytes = Number(psql(url, "SELECT pg_total_relation_size('rate_limit_windows')"));
    console.log(
      `| ${fmt(count)} | ${each} | ${(bytes / 1e6).toFixed(1)} | ${Math.round(bytes / count)} | ${seconds.toFixed(1)} |`,
    );
    await limiter.close();
  }
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');

await main();
