// `pnpm bench:growth` in apps/koa-server, after `pnpm build` (a report, not a test): how the
// verdict rate and p99 grow with the number of keys and with the request log's history
// (docs/protocol.md#storage), on SQLite and on PostgreSQL. Each case is its own database, seeded
// in bulk (bulk-seed.mjs): a database of N keys (half bound, as bench/run.mjs), and a copy of it
// given a request log of L lines over a year (the log names that database's keys, so a case of
// 10,000 keys is a database of 10,000 keys). Then every case's server runs at once (the real
// service in bench/server-child.mjs, kinds `koa` and `koa-postgres`, on core 0), and autocannon
// (50 connections, the request mix and client addresses of bench/run.mjs) loads each in turn, in
// alternating rounds, on core 1 with PostgreSQL. Medians over the rounds.
// After the rounds, on the largest case: the purge of the day just past twelve months (about
// 1/366 of the log), run by a second process on the server's core while the load goes on, and the
// verdict rate during it against the rate before; then the same with a heavy day (GROWTH_HEAVY_DAY
// lines logged in one day) added past retention. Also the size on disk per key and per logged
// request, and the seeding times.
// Environment: GROWTH_STORES (sqlite,postgres), GROWTH_KEYS (10000,100000,1000000), GROWTH_LOG
// (0,10000000), GROWTH_ROUNDS (3), GROWTH_SECONDS per round (4), GROWTH_PURGE (1; 0 skips the
// purge), GROWTH_HEAVY_DAY (1000000; 0 skips it), GROWTH_MIX (`verdicts`, the mix of bench/run.mjs;
// `steady`: the new-domain third asks bound keys on their domain too, and the bound domains were
// last seen at the seed, so every case does the same work, a read and a log line, whatever its
// size: in the `verdicts` mix a large case binds a fresh key, and moves a bound domain's last
// seen, on most of its requests all run long, where a small one has bound and moved them all in
// its first seconds). A quick run:
// GROWTH_STORES=sqlite GROWTH_KEYS=10000,100000 GROWTH_LOG=0,1000000 pnpm bench:growth
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { findPostgresBinDir, startPostgres } from '@licence/pg-cluster';
import { openPostgres } from '@licence/store-postgres';
import { openSqliteStore } from '@licence/store-sqlite';
import { seedPostgres, seedSqlite } from './bulk-seed.mjs';
import { cpuMs, hasTaskset, postgresPids } from './proc-stats.mjs';
import { listeningLine, startServerProcess } from './server-process.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

async function main() {
  const list = (name, fallback) =>
    (process.env[name] ?? fallback)
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  const numbers = (name, fallback) =>
    list(name, fallback).map((v) => {
      const n = Number(v.replaceAll('_', ''));
      if (!Number.isInteger(n) || n < 0) throw new Error(`${name}: whole numbers, got ${v}`);
      return n;
    });
  const settings = {
    stores: list('GROWTH_STORES', 'sqlite,postgres'),
    keys: numbers('GROWTH_KEYS', '10000,100000,1000000').sort((a, b) => a - b),
    logs: numbers('GROWTH_LOG', '0,10000000').sort((a, b) => a - b),
    rounds: numbers('GROWTH_ROUNDS', '3')[0],
    seconds: numbers('GROWTH_SECONDS', '4')[0],
    purge: process.env.GROWTH_PURGE !== '0',
    heavyDay: numbers('GROWTH_HEAVY_DAY', '1000000')[0],
    mix: process.env.GROWTH_MIX ?? 'verdicts',
  };
  if (settings.mix !== 'verdicts' && settings.mix !== 'steady')
    throw new Error(`GROWTH_MIX: verdicts or steady, got ${settings.mix}`);
  for (const store of settings.stores)
    if (store !== 'sqlite' && store !== 'postgres') throw new Error(`GROWTH_STORES: sqlite or postgres, got ${store}`);
  if (settings.keys.some((k) => k < 2)) throw new Error('GROWTH_KEYS: at least 2 keys a case');
  const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'})`;
  console.log(`growth: ${JSON.stringify(settings)}; ${machine}`);
  for (const store of settings.stores) await measureStore(store, settings);
}

/** Seeds, serves, loads, purges and reports one store. */
async function measureStore(storeName, settings) {
  const dir = mkdtempSync(join(tmpdir(), 'licence-growth-'));
  const now = Math.floor(Date.now() / 1000);
  const pgBinDir = storeName === 'postgres' ? await findPostgresBinDir() : null;
  if (storeName === 'postgres' && pgBinDir === null) {
    console.warn(
      'PostgreSQL binaries not found: the postgres growth is SKIPPED (install postgresql or set PG_BIN_DIR)',
    );
    return;
  }
  const cluster = pgBinDir === null ? null : await startPostgres({ binDir: pgBinDir });
  const db = storeName === 'postgres' ? postgresPlace(cluster, pgBinDir) : sqlitePlace(dir);
  const servers = [];
  try {
    console.log(`\n== ${storeName}: seeding (both cores) ==`);
    const cases = await seedCases(db, settings, now);
    const sizes = await db.sizes(cases, settings);
    pinToCores(process.pid, '1');
    if (cluster !== null) for (const pid of postgresPids(cluster)) pinToCores(pid, '1');
    const seed = randomBytes(32).toString('base64');
    for (const c of cases) {
      c.server = await startServer(storeName === 'postgres' ? 'koa-postgres' : 'koa', c.location, seed);
      c.databasePids = cluster === null ? () => [] : () => postgresPids(cluster);
      servers.push(c.server);
      await checkVerdict(c);
    }
    for (const c of cases) await load(c, 2); // warm-up, not reported
    for (let round = 0; round < settings.rounds; round++)
      for (const c of cases) c.runs.push(await load(c, settings.seconds));
    const purges = settings.purge ? await purgeUnderLoad(db, cases, settings, storeName) : [];
    report(storeName, settings, cases, sizes, purges);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every case: a database of N keys, seeded once per N; its copies get their log. The base itself
 * serves the case without a log, after the copies are made (the load writes to it).
 */
async function seedCases(db, settings, now) {
  const cases = [];
  for (const keys of settings.keys) {
    const base = await db.create(`k${keys}`);
    const seeded = await db.seed(base, { keys, now, ...(settings.mix === 'steady' ? { seenAt: now } : {}) });
    console.log(`${fmt(keys)} keys: seeded in ${seeded.seconds.toFixed(1)} s`);
    const made = [];
    for (const logRows of settings.logs) {
      if (logRows === 0) continue;
      const location = await db.copy(base, `k${keys}-l${logRows}`);
      const logged = await db.seed(location, { keys: 0, logRows, now });
      console.log(`  + ${fmt(logRows)} log lines: seeded in ${logged.seconds.toFixed(1)} s`);
      made.push({ keys, logRows, location, seeded, logSeconds: logged.seconds });
    }
    if (settings.logs.includes(0)) made.unshift({ keys, logRows: 0, location: base, seeded, logSeconds: 0 });
    for (const c of made)
      cases.push({ ...c, bound: seeded.bound, fresh: seeded.fresh, mix: settings.mix, counter: 0, runs: [] });
  }
  return cases;
}

/** SQLite: one file per case; a copy is a file copy (the seed ends with the WAL checkpointed away). */
function sqlitePlace(dir) {
  return {
    create: async (name) => join(dir, `${name}.db`),
    seed: (file, options) => seedSqlite(file, options),
    copy: async (file, name) => {
      const copy = join(dir, `${name}.db`);
      copyFileSync(file, copy);
      return copy;
    },
    /** File sizes after the seed's checkpoint: the keys' cost from the bases, the log's from base and copy. */
    sizes: async (cases) =>
      cases.map((c) => ({ keys: c.keys, logRows: c.logRows, bytes: statSync(c.location).size + walSize(c.location) })),
  };
}

const walSize = (file) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

/** PostgreSQL: one database per case in one cluster; a copy is CREATE DATABASE ... TEMPLATE. */
function postgresPlace(cluster, binDir) {
  const urlOf = (name) => {
    const url = new URL(cluster.url);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const psql = (sql) => {
    const out = spawnSync(join(binDir, 'psql'), [cluster.url, '-v', 'ON_ERROR_STOP=1', '-At', '-c', sql], {
      encoding: 'utf8',
    });
    if (out.status !== 0) throw new Error(`psql: ${out.stderr.trim()}`);
    return out.stdout.trim();
  };
  return {
    create: async (name) => {
      psql(`CREATE DATABASE "${name}"`);
      return urlOf(name);
    },
    seed: (url, options) => seedPostgres(url, options),
    copy: async (url, name) => {
      psql(`CREATE DATABASE "${name}" TEMPLATE "${new URL(url).pathname.slice(1)}"`);
      return urlOf(name);
    },
    /** pg_total_relation_size (table, indexes, TOAST) of the tables a key and a log line write. */
    sizes: async (cases) =>
      cases.map((c) => {
        const sql = `SELECT ${['keys', 'bound_domains', 'request_log', 'activity_days'].map((t) => `pg_total_relation_size('${t}')`).join(', ')}`;
        const out = spawnSync(join(binDir, 'psql'), [c.location, '-At', '-F', ',', '-c', sql], { encoding: 'utf8' });
        const [keys, domains, log, days] = out.stdout.trim().split(',').map(Number);
        return {
          keys: c.keys,
          logRows: c.logRows,
          tables: { keys, domains, log, days },
          bytes: keys + domains + log + days,
        };
      }),
  };
}

/** Sets the CPU affinity of a process and all its threads (no-op without taskset). */
function pinToCores(pid, cores) {
  spawnSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
}

/** bench/server-child.mjs on core 0, as bench/run.mjs starts it. */
function startServer(kind, location, seed) {
  const args = [join(here, 'server-child.mjs'), kind, location, seed, ''];
  return startServerProcess({ name: `${kind} server`, args, portOf: listeningLine });
}

/** The seeded keys are the store's: a bound key asked for its own domain is accepted, signed. */
async function checkVerdict(c) {
  const k = c.bound[0];
  const response = await fetch(`http://127.0.0.1:${c.server.port}/api/licence`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'LicenceBench/1.0', 'x-forwarded-for': '198.19.0.1' },
    body: JSON.stringify({ cle: k.cle, url: `https://www.${k.domain}/` }),
  });
  const body = await response.json();
  if (response.status !== 200 || body.donnees?.ok !== true || typeof body.signature !== 'string')
    throw new Error(`${fmt(c.keys)} keys: a seeded bound key was not accepted (${response.status})`);
}

// The request mix of bench/run.mjs: a third bound keys on their domain, a third fresh keys on a
// new domain (the first call binds), a third unknown keys; 20,000 client addresses in turn.
function nextBody(c) {
  const n = c.counter++;
  const pick = n % 3;
  if (pick === 0) {
    const k = c.bound[n % c.bound.length];
    return { cle: k.cle, url: `https://www.${k.domain}/` };
  }
  if (pick === 1 && c.mix === 'steady') {
    const k = c.bound[(n + (c.bound.length >> 1)) % c.bound.length];
    return { cle: k.cle, url: `https://www.${k.domain}/` };
  }
  if (pick === 1) {
    const index = Math.floor(n / 3) % c.fresh.length;
    return { cle: c.fresh[index].cle, url: `https://new-${index}.fr/` };
  }
  return { cle: `ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-${String(n % 100000).padStart(5, '0')}`, url: 'unknown.fr' };
}
const CLIENTS = 20_000;
const forwarded = (n) => `198.18.${(n % CLIENTS) >> 8}.${(n % CLIENTS) & 255}`;

/** autocannon, 50 connections, `seconds`; with `onResponse` each answer's time is passed on. */
async function load(c, seconds, onResponse) {
  const instance = autocannon({
    url: `http://127.0.0.1:${c.server.port}`,
    connections: 50,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/licence',
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify(nextBody(c)),
          headers: {
            'content-type': 'application/json',
            'user-agent': 'LicenceBench/1.0',
            'x-forwarded-for': forwarded(c.counter),
          },
        }),
      },
    ],
  });
  if (onResponse) instance.on('response', () => onResponse(performance.timeOrigin + performance.now()));
  const cpu = () => ({ server: cpuMs([c.server.pid]), database: cpuByPid(c.databasePids()) });
  const before = cpu();
  const result = await instance;
  const after = cpu();
  // Per process: a pool's idle connection may end during the round (its backend's time leaves the
  // sum) and a new one start; what each process still there spent since `before` is what counts.
  let databaseMs = 0;
  for (const [pid, ms] of after.database) databaseMs += ms - (before.database.get(pid) ?? 0);
  return {
    // CPU time per answered request (user + system, from /proc), as bench/run.mjs reports it: on
    // a machine shared with other work the rate moves with the neighbours, the CPU per request much less.
    serverUs: (1000 * (after.server - before.server)) / result.requests.total,
    databaseUs: (1000 * databaseMs) / result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}

/**
 * On the largest case with a log: the load runs PURGE_LOAD seconds; after PURGE_AFTER, a second
 * process on the server's core purges as the daily timer would (cut-off: twelve months before now).
 * The rate during the purge is the answers between its start and end (at least 1 s) over that
 * time; the rate without is the answers of the seconds before it. Then the same after a heavy day was logged
 * just past retention.
 */
async function purgeUnderLoad(db, cases, settings, storeName) {
  const c = cases.filter((x) => x.logRows > 0).at(-1);
  if (c === undefined) return [];
  const results = [{ label: 'a day (the day just past twelve months)', ...(await purgeOnce(c, storeName)) }];
  if (settings.heavyDay > 0) {
    const cut = twelveMonthsBefore(Date.now());
    const seeded = await db.seed(c.location, { keys: 0, logRows: settings.heavyDay, logDays: 1, now: cut - 60 });
    console.log(`heavy day: ${fmt(settings.heavyDay)} lines logged past retention in ${seeded.seconds.toFixed(1)} s`);
    results.push({ label: `a heavy day (${fmt(settings.heavyDay)} lines)`, ...(await purgeOnce(c, storeName)) });
  }
  return results.map((r) => ({ ...r, keys: c.keys, logRows: c.logRows }));
}

const PURGE_AFTER = 3; // seconds of load before the purge starts
const PURGE_LOAD = 12; // seconds of load in all

async function purgeOnce(c, storeName) {
  const times = [];
  const started = performance.timeOrigin + performance.now();
  const loading = load(c, PURGE_LOAD, (t) => times.push(t));
  await new Promise((resolve) => setTimeout(resolve, PURGE_AFTER * 1000));
  const spawnedAt = performance.timeOrigin + performance.now();
  const before = twelveMonthsBefore(Date.now());
  const purge = await runPurgeChild(storeName, c.location, before);
  const result = await loading;
  const count = (from, to) => times.filter((t) => t >= from && t < to).length;
  // Without: from 1 s into the load (connections open) to the purge process's start.
  const baseline = count(started + 1000, spawnedAt) / ((spawnedAt - started - 1000) / 1000);
  // During: from the purge's start to its end, or to 1 s after its start when it is shorter (a
  // window of a few ms holds too few answers to be a rate).
  const end = Math.max(purge.end, purge.start + 1000);
  const during = count(purge.start, end) / ((end - purge.start) / 1000);
  return { deleted: purge.deleted, ms: purge.end - purge.start, baseline, during, load: result };
}

function runPurgeChild(storeName, location, before) {
  const args = [fileURLToPath(import.meta.url), '--purge', storeName, location, String(before)];
  const child = hasTaskset
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`purge exited with ${code}`)),
    ),
  );
}

/** The purge as the daily timer runs it (the store's purgeRequestLog), timed around that call alone. */
async function purgeChild(storeName, location, beforeText) {
  const before = Number(beforeText);
  const backend =
    storeName === 'postgres'
      ? await openPostgres({ connectionString: location })
      : { store: openSqliteStore({ file: location }), close: undefined };
  const start = performance.timeOrigin + performance.now();
  const deleted = await backend.store.purgeRequestLog(before);
  const end = performance.timeOrigin + performance.now();
  await (backend.close ? backend.close() : backend.store.close());
  process.stdout.write(JSON.stringify({ deleted, start, end }));
}

/**
 * The purge's cut-off, in seconds: the same UTC date and time twelve calendar months before `nowMs`
 * (docs/protocol.md#privacy; 29 February rolls over to 1 March), as the service's daily purge takes it.
 */
function twelveMonthsBefore(nowMs) {
  const date = new Date(nowMs);
  date.setUTCMonth(date.getUTCMonth() - 12);
  return Math.floor(date.getTime() / 1000);
}

/** Each pid's CPU milliseconds so far. */
const cpuByPid = (pids) => new Map(pids.map((pid) => [pid, cpuMs([pid])]));

const fmt = (n) => Math.round(n).toLocaleString('en');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function report(storeName, settings, cases, sizes, purges) {
  console.log(
    `\n${storeName}: mix ${settings.mix}, 50 connections, ${settings.rounds} alternating rounds of ${settings.seconds} s (medians), ${hasTaskset ? 'server on core 0, load and PostgreSQL on core 1' : 'NOT pinned (no taskset)'}`,
  );
  console.log(
    '| keys | log lines | req/s | p50 ms | p99 ms | server CPU µs/req | database CPU µs/req | rounds req/s | non-2xx | errors | seed s (keys + log) | MB |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|');
  for (const [i, c] of cases.entries()) {
    const runs = c.runs;
    const sum = (key) => runs.reduce((total, r) => total + r[key], 0);
    console.log(
      `| ${fmt(c.keys)} | ${fmt(c.logRows)} | ${fmt(median(runs.map((r) => r.rps)))} | ${median(runs.map((r) => r.p50))} | ${median(runs.map((r) => r.p99))} | ${fmt(median(runs.map((r) => r.serverUs)))} | ${storeName === 'postgres' ? fmt(median(runs.map((r) => r.databaseUs))) : '-'} | ${runs.map((r) => fmt(r.rps)).join(', ')} | ${sum('non2xx')} | ${sum('errors')} | ${c.seeded.seconds.toFixed(1)} + ${c.logSeconds.toFixed(1)} | ${(sizes[i].bytes / 1e6).toFixed(1)} |`,
    );
  }
  const cpu = (c) => median(c.runs.map((r) => r.serverUs + r.databaseUs));
  const first = cases[0];
  const last = cases.at(-1);
  const rate = (c) => median(c.runs.map((r) => r.rps));
  const p99 = (c) => median(c.runs.map((r) => r.p99));
  console.log(
    `smallest / largest case: req/s ${(rate(first) / rate(last)).toFixed(2)}x, p99 ${(p99(last) / p99(first)).toFixed(2)}x, CPU per request (server + database) ${(cpu(last) / cpu(first)).toFixed(2)}x (flat: 1.2x or less)`,
  );
  printSizes(storeName, sizes);
  for (const p of purges)
    console.log(
      `purge of ${p.label} on ${fmt(p.keys)} keys + ${fmt(p.logRows)} lines: ${fmt(p.deleted)} deleted in ${fmt(p.ms)} ms; req/s during it ${fmt(p.during)} against ${fmt(p.baseline)} before (${(p.during / p.baseline).toFixed(2)}); the whole ${PURGE_LOAD} s: p99 ${p.load.p99} ms, non-2xx ${p.load.non2xx}, errors ${p.load.errors}`,
    );
}

/** Bytes per key (the bases) and per logged request (a copy with a log against its base). */
function printSizes(storeName, sizes) {
  const bases = sizes.filter((s) => s.logRows === 0);
  if (bases.length >= 2) {
    const [small, large] = [bases[0], bases.at(-1)];
    console.log(
      `size per key (file growth from ${fmt(small.keys)} to ${fmt(large.keys)} keys, half bound): ${((large.bytes - small.bytes) / (large.keys - small.keys)).toFixed(1)} bytes`,
    );
  }
  for (const s of sizes.filter((x) => x.logRows > 0)) {
    const base = sizes.find((x) => x.keys === s.keys && x.logRows === 0);
    const perLine =
      storeName === 'postgres'
        ? `${(s.tables.log / s.logRows).toFixed(1)} bytes (request_log's pg_total_relation_size / lines)`
        : base === undefined
          ? 'no base without a log to compare'
          : `${((s.bytes - base.bytes) / s.logRows).toFixed(1)} bytes (file growth / lines, activity_days included)`;
    console.log(`size per logged request, ${fmt(s.keys)} keys + ${fmt(s.logRows)} lines: ${perLine}`);
  }
  if (storeName === 'postgres')
    for (const s of sizes)
      console.log(
        `  ${fmt(s.keys)} keys + ${fmt(s.logRows)} lines: keys ${(s.tables.keys / 1e6).toFixed(1)} MB, bound_domains ${(s.tables.domains / 1e6).toFixed(1)} MB, request_log ${(s.tables.log / 1e6).toFixed(1)} MB, activity_days ${(s.tables.days / 1e6).toFixed(2)} MB; per key ${((s.tables.keys + s.tables.domains) / s.keys).toFixed(1)} bytes`,
      );
}

// Last, once every constant above is set. The purge's own process: `growth.mjs --purge <store> <location> <before>`.
if (process.argv[2] === '--purge') await purgeChild(...process.argv.slice(3));
else await main();
