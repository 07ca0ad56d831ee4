// `pnpm bench` in apps/koa-server (a report, not a test).
// The Koa service on one core with a SQLite store of 100,000 keys, and in the same run a bare
// node:http baseline that parses the body and signs a fixed verdict with node:crypto; autocannon
// on the other core, 50 connections, a mix of bound, new-domain and unknown keys. Prints req/s,
// p50 and p99 for both and their ratio. Only loopback is used. Environment: BENCH_KEYS (100000),
// BENCH_SECONDS per round (4), BENCH_ROUNDS (5), BENCH_PROFILE=1 for a CPU profile of the Koa server,
// BENCH_PG_SOCKET=1 (the PostgreSQL row over the Unix socket instead of TCP), BENCH_PG_CORES (the cores
// PostgreSQL may use, default all), BENCH_KINDS (a comma list of bare, koa, koa-postgres: default all; bare always runs, as every ratio
// is to it, and the koa-webhook rows run only when named), BENCH_PG_STATS=1 to print PostgreSQL's busiest
// statements (pg_stat_statements) after, BENCH_MIX=events (the new-domain requests come from a new
// host each time: the first binds the fresh key, a domain.bound event, and every later one is an
// autre_domaine refusal, a verdict.refused event: an event on every third request).
// Two more rows (`pnpm bench:webhooks`): `koa-webhook`, the Koa service on SQLite with one webhook
// endpoint for every event whose receiver accepts connections and never answers, and
// `koa-webhook-ok`, the same with a receiver that answers 204 at once; beside `koa`, the same
// service without an endpoint (all three run the deliverer, as `licence serve` does). The report
// gives koa-webhook against koa (what an endpoint that never answers costs verdicts) and against
// koa-webhook-ok (what its silence costs, the writes of the events' deliveries being equal),
// round by round (docs/protocol.md#webhooks: a slow receiver never slows verdicts).
// `koa-ceiling` (always run, like bare): bare Koa + @koa/router + @koa/bodyparser, one POST route
// that parses the JSON body and signs the same fixed verdict: what Koa itself costs, so the report
// gives the service against it too (the adapter's and the service's own overhead).
// `serve-1` and `serve-2` (`pnpm bench:workers`, only when named): the real `licence serve`
// (dist/cli.js) with LICENCE_WORKERS=1 or 2 on a copy of the SQLite file, free to use every core
// (BENCH_SERVE_CORES, default 0-1); BENCH_LOAD_CORES (default 1) places this script and its load
// generator, whose own CPU share of each round is reported beside the servers' (the primary and
// its workers, from /proc).
// A third row, `koa-postgres`: the same Koa service on PostgreSQL with its shared
// rate limiter, on a throwaway cluster this script starts (@licence/pg-cluster) and seeds with the
// same keys; without PostgreSQL binaries that row is skipped with one loud line.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { generateKey, normalizeKey } from '@licence/core';
import { findPostgresBinDir, startPostgres } from '@licence/pg-cluster';
import { openPostgres } from '@licence/store-postgres';
import { openSqliteStore } from '@licence/store-sqlite';
import { cpuMs, hasTaskset, postgresPids, treePids } from './proc-stats.mjs';
import { listeningLine, serveBannerPort, startServerProcess } from './server-process.mjs';

const KEYS = Number(process.env.BENCH_KEYS ?? 100_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 4); // per round
const CONNECTIONS = 50;
const SERVE_KINDS = ['serve-1', 'serve-2'];
const here = fileURLToPath(new URL('.', import.meta.url));
// PostgreSQL's cores: by default the load generator's (core 1), so the server keeps its core to
// itself as the bare baseline does, and the database does its work elsewhere, as it would on its
// own machine; BENCH_PG_CORES=0-1 lets it run on every core (it then takes turns with the server).
const PG_CORES = process.env.BENCH_PG_CORES ?? String(Math.max(0, cpus().length - 1));

// The load generator takes core 1 (BENCH_LOAD_CORES); each server gets core 0, the serve-N rows
// BENCH_SERVE_CORES.
const LOAD_CORES = process.env.BENCH_LOAD_CORES ?? '1';
const SERVE_CORES = process.env.BENCH_SERVE_CORES ?? `0-${Math.max(0, cpus().length - 1)}`;
if (hasTaskset && process.env.BENCH_PINNED !== '1') {
  const child = spawnSync('taskset', ['-c', LOAD_CORES, process.execPath, fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PINNED: '1' },
  });
  process.exit(child.status ?? 1);
}

const dir = mkdtempSync(join(tmpdir(), 'licence-bench-'));
const dataFile = join(dir, 'licence.db');
const seed = randomBytes(32).toString('base64');
const hash = (key) => createHash('sha256').update(normalizeKey(key)).digest('hex');

// The PostgreSQL row's throwaway cluster, on PG_CORES (above): the postmaster and its current
// children are set there, and the backends it forks later inherit that. Measured on this 2-core
// machine, the database beside the server (0-1) loses the server about a third of its rate to
// the database's turns on its core; beside the load generator it does not starve it (its share of
// core 1 is about a third at 4,000 req/s).
const pgBinDir = await findPostgresBinDir();
if (pgBinDir === null)
  console.warn('PostgreSQL binaries not found: the koa-postgres row is SKIPPED (install postgresql or set PG_BIN_DIR)');
const wanted = new Set([
  'bare',
  'koa-ceiling',
  ...(process.env.BENCH_KINDS ?? 'bare,koa,koa-postgres').split(',').map((kind) => kind.trim()),
]);
const pgStats = process.env.BENCH_PG_STATS === '1';
const cluster =
  pgBinDir === null || !wanted.has('koa-postgres')
    ? null
    : await startPostgres({
        binDir: pgBinDir,
        ...(pgStats ? { settings: { shared_preload_libraries: 'pg_stat_statements' } } : {}),
      });
if (cluster !== null && hasTaskset) {
  for (const pid of postgresPids(cluster)) spawnSync('taskset', ['-a', '-p', '-c', PG_CORES, pid], { stdio: 'ignore' });
}

// Half the keys are bound to a domain (the "bound" requests ask that domain again); the other
// half are fresh (each "new-domain" request binds one); "unknown" keys match nothing.
console.log(`seeding ${KEYS.toLocaleString('en')} keys...`);
const seeding = Date.now();
const product = { id: 'theme', author: 'atelier', name: 'Theme', createdAt: 1795342440, staging: [] };
const store = openSqliteStore({ file: dataFile });
await store.addProduct(product);
// The same keys in PostgreSQL, through the store's own insertKey (its schema, its hashing of
// nothing: the hash is computed here for both), in batches so the pool's queue stays short.
const pgBackend = cluster === null ? null : await openPostgres({ connectionString: cluster.url });
await pgBackend?.store.addProduct(product);
const bound = [];
const fresh = [];
let inserts = [];
for (let i = 0; i < KEYS; i++) {
  const cle = generateKey((n) => randomBytes(n));
  const domain = i % 2 === 0 ? `site-${i}.fr` : null;
  (domain === null ? fresh : bound).push({ cle, domain });
  const key = {
    hash: hash(cle),
    hint: normalizeKey(cle).slice(-4),
    produit: 'theme',
    kind: 'buyer',
    sites: 1,
    expiresAt: null,
    createdAt: 1795342440,
  };
  const domains = domain === null ? [] : [domain];
  inserts.push(store.insertKey(key, domains));
  if (pgBackend !== null) inserts.push(pgBackend.store.insertKey(key, domains));
  if (inserts.length >= 400) {
    await Promise.all(inserts);
    inserts = [];
  }
}
await Promise.all(inserts);
await store.close();
await pgBackend?.close();
console.log(`seeded in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
// The koa-webhook rows bind and refuse on their own copies, so every SQLite row starts from the same keys.
const webhookDataFiles = {
  'koa-webhook': join(dir, 'licence-webhook.db'),
  'koa-webhook-ok': join(dir, 'licence-ok.db'),
};
for (const [kind, file] of Object.entries(webhookDataFiles)) if (wanted.has(kind)) copyFileSync(dataFile, file);
// The serve-N rows: a data folder each, holding a copy under the name `licence serve` opens.
const serveDataDirs = {};
for (const kind of SERVE_KINDS) {
  if (!wanted.has(kind)) continue;
  serveDataDirs[kind] = join(dir, kind);
  mkdirSync(serveDataDirs[kind]);
  copyFileSync(dataFile, join(serveDataDirs[kind], 'licence.db'));
}
// A receiver that accepts every connection and never answers: each attempt waits out its 15 s.
const silentSockets = new Set();
const blackHole = createTcpServer((socket) => {
  silentSockets.add(socket);
  // Read and drop what comes, or the peer's close would never be seen (a paused socket).
  socket.resume();
  socket.on('close', () => silentSockets.delete(socket));
  socket.on('error', () => {});
});
await new Promise((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
// And one that answers every delivery 204 at once.
const quickReceiver = createHttpServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(204).end());
});
await new Promise((resolve) => quickReceiver.listen(0, '127.0.0.1', resolve));
const webhookUrls = {
  'koa-webhook': `http://127.0.0.1:${blackHole.address().port}/webhook`,
  'koa-webhook-ok': `http://127.0.0.1:${quickReceiver.address().port}/webhook`,
};

async function startServer(kind) {
  if (SERVE_KINDS.includes(kind)) return startServe(kind);
  // BENCH_PROFILE=1 writes a V8 CPU profile of the Koa server to bench/profiles/ (git-ignored).
  const profile =
    process.env.BENCH_PROFILE === '1' && kind !== 'bare'
      ? ['--cpu-prof', `--cpu-prof-dir=${join(here, 'profiles')}`]
      : [];
  // BENCH_SERVICE_FLAGS: Node flags for the service's rows only (koa, koa-postgres, koa-webhook*),
  // to try one against the same ceiling (`--max-semi-space-size=16`).
  const flags =
    kind.startsWith('koa') && kind !== 'koa-ceiling'
      ? (process.env.BENCH_SERVICE_FLAGS ?? '').split(' ').filter(Boolean)
      : [];
  const location = kind === 'koa-postgres' ? serverDatabaseUrl() : (webhookDataFiles[kind] ?? dataFile);
  const args = [...flags, ...profile, join(here, 'server-child.mjs'), kind, location, seed, webhookUrls[kind] ?? ''];
  return startServerProcess({ name: `${kind} server`, args, portOf: listeningLine });
}

const mix = process.env.BENCH_MIX ?? 'verdicts';
let counter = 0;
function nextBody() {
  const n = counter++;
  const pick = n % 3;
  if (pick === 0) {
    const k = bound[n % bound.length];
    return { cle: k.cle, url: `https://www.${k.domain}/` };
  }
  if (pick === 1) {
    const index = Math.floor(n / 3) % fresh.length;
    const k = fresh[index];
    const host = mix === 'events' ? `other-${n}.fr` : `new-${index}.fr`;
    return { cle: k.cle, url: `https://${host}/` };
  }
  return { cle: `ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-${String(n % 100000).padStart(5, '0')}`, url: 'unknown.fr' };
}
// Clients: a pool of 20,000 addresses from the RFC 2544 benchmarking range (198.18.0.0/15), taken
// in turn, so each stays under the 30-per-minute limit up to 10,000 req/s and the limiter holds
// 20,000 windows, a very busy service (one call a day per shop is 29 million shops). A new
// address on every request would instead measure a limiter filling with hundreds of thousands
// of one-request windows. The addresses only ever travel in a header over loopback.
const CLIENTS = 20_000;
const forwarded = (n) => {
  const i = n % CLIENTS;
  return `198.18.${i >> 8}.${i & 255}`;
};

async function load(port, duration) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/api/licence',
        setupRequest: (request) => {
          const body = JSON.stringify(nextBody());
          return {
            ...request,
            body,
            headers: {
              'content-type': 'application/json',
              'user-agent': 'LicenceBench/1.0',
              'x-forwarded-for': forwarded(counter),
            },
          };
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}

// All servers stay up; short rounds alternate between them, so a machine whose speed drifts
// (a shared VM) slows all alike. Each round's ratio is koa/bare (and koa-postgres/bare) of that
// round; the report gives the medians over the rounds.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const kinds = ['bare', 'koa-ceiling', 'koa', 'koa-webhook-ok', 'koa-webhook', 'koa-postgres', ...SERVE_KINDS].filter(
  (kind) => wanted.has(kind) && (kind !== 'koa-postgres' || cluster !== null),
);
const servers = {};
for (const kind of kinds) servers[kind] = await startServer(kind);
for (const kind of kinds) await load(servers[kind].port, 2); // warm-up, not reported
const runs = Object.fromEntries(kinds.map((kind) => [kind, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const kind of kinds) {
    const before = {
      server: cpuMs(treePids(servers[kind].pid)),
      database: kind === 'koa-postgres' ? cpuMs(postgresPids(cluster)) : 0,
      load: process.cpuUsage(),
      wall: performance.now(),
    };
    const result = await load(servers[kind].port, DURATION);
    const after = {
      server: cpuMs(treePids(servers[kind].pid)),
      database: kind === 'koa-postgres' ? cpuMs(postgresPids(cluster)) : 0,
      load: process.cpuUsage(before.load),
      wall: performance.now(),
    };
    // The load generator's share of one core over the round (this process: autocannon runs in it).
    result.loadCores = (after.load.user + after.load.system) / 1000 / (after.wall - before.wall);
    result.serverCores = (after.server - before.server) / (after.wall - before.wall);
    // CPU time per answered request (user + system, from /proc): what each request costs the
    // server process, and the database's processes, whatever core they ran on.
    result.serverUs = (1000 * (after.server - before.server)) / result.total;
    result.databaseUs = (1000 * (after.database - before.database)) / result.total;
    runs[kind].push(result);
  }
}
await Promise.all(Object.values(servers).map((server) => server.stop()));
for (const socket of silentSockets) socket.destroy();
blackHole.close();
quickReceiver.close();
if (cluster !== null && pgStats) await printPgStats(cluster.url);
await cluster?.stop();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summary = (list) => ({
  rps: median(list.map((r) => r.rps)),
  p50: median(list.map((r) => r.p50)),
  p99: median(list.map((r) => r.p99)),
  total: list.reduce((sum, r) => sum + r.total, 0),
  non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
  errors: list.reduce((sum, r) => sum + r.errors, 0),
  serverUs: median(list.map((r) => r.serverUs)),
  loadCores: median(list.map((r) => r.loadCores)),
  serverCores: median(list.map((r) => r.serverCores)),
  databaseUs: median(list.map((r) => r.databaseUs)),
});
const rows = Object.fromEntries(kinds.map((kind) => [kind, summary(runs[kind])]));
const ratiosOf = (kind) => runs[kind].map((r, i) => r.rps / runs.bare[i].rps);
const ratios = rows.koa === undefined ? [] : ratiosOf('koa');
const ceilingRatios = rows.koa === undefined ? [] : runs.koa.map((r, i) => r.rps / runs['koa-ceiling'][i].rps);
// The steadier measure on a shared machine: each server is CPU-bound on its core.
const ceilingCpu = rows.koa === undefined ? [] : runs.koa.map((r, i) => runs['koa-ceiling'][i].serverUs / r.serverUs);
rmSync(dir, { recursive: true, force: true });

const line = (name, r) =>
  `| ${name} | ${Math.round(r.rps).toLocaleString('en')} | ${r.p50} | ${r.p99} | ${r.total.toLocaleString('en')} | ${r.non2xx} | ${r.errors} | ${Math.round(r.serverUs)} | ${r.databaseUs > 0 ? Math.round(r.databaseUs) : '-'} |`;
console.log(
  `\n${KEYS.toLocaleString('en')} keys, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION} s each (medians), ${hasTaskset ? `server on core 0, load on core(s) ${LOAD_CORES}` : 'NOT pinned (no taskset)'}`,
);
console.log(
  '| server | req/s | p50 ms | p99 ms | requests | non-2xx | errors | server CPU µs/req | database CPU µs/req |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
console.log(line('bare node:http + node:crypto sign', rows.bare));
console.log(line('Koa + @koa/router + @koa/bodyparser + sign (the Koa ceiling)', rows['koa-ceiling']));
if (rows.koa !== undefined) console.log(line('Koa + @licence/service + SQLite', rows.koa));
if (rows['koa-webhook-ok'] !== undefined)
  console.log(line('Koa + SQLite + a webhook endpoint that answers at once', rows['koa-webhook-ok']));
if (rows['koa-webhook'] !== undefined)
  console.log(line('Koa + SQLite + a webhook endpoint that never answers', rows['koa-webhook']));
if (rows['koa-postgres'] !== undefined)
  console.log(line('Koa + @licence/service + PostgreSQL (shared rate limit)', rows['koa-postgres']));
for (const kind of SERVE_KINDS)
  if (rows[kind] !== undefined)
    console.log(line(`licence serve, LICENCE_WORKERS=${kind.slice(-1)}, SQLite`, rows[kind]));
const ceilingOfBare = ratiosOf('koa-ceiling');
console.log(
  `\nratio koa-ceiling/bare per round: ${ceilingOfBare.map((r) => r.toFixed(2)).join(', ')}; median ${median(ceilingOfBare).toFixed(2)}`,
);
if (rows.koa !== undefined) {
  console.log(
    `ratio koa/bare per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)} (target 0.6 or better)`,
  );
  console.log(
    `ratio koa/koa-ceiling per round: ${ceilingRatios.map((r) => r.toFixed(2)).join(', ')}; median ${median(ceilingRatios).toFixed(2)} (target 0.95 or better); by server CPU per request ${median(ceilingCpu).toFixed(2)}; p99 koa ${rows.koa.p99} ms, koa-ceiling ${rows['koa-ceiling'].p99} ms, bare ${rows.bare.p99} ms`,
  );
}
if (rows['serve-1'] !== undefined && rows['serve-2'] !== undefined) {
  const twoToOne = runs['serve-2'].map((r, i) => r.rps / runs['serve-1'][i].rps);
  console.log(
    `ratio serve-2/serve-1 per round: ${twoToOne.map((r) => r.toFixed(2)).join(', ')}; median ${median(twoToOne).toFixed(2)}`,
  );
}
for (const kind of SERVE_KINDS) {
  if (rows[kind] === undefined) continue;
  const r = rows[kind];
  console.log(
    `${kind}: servers (primary + workers) ${r.serverCores.toFixed(2)} cores; load generator ${r.loadCores.toFixed(2)} of one core, ${((100 * r.loadCores) / cpus().length).toFixed(0)}% of the machine's ${cpus().length}; servers on ${hasTaskset ? `core(s) ${SERVE_CORES}` : 'any core'}, load on ${hasTaskset ? `core(s) ${LOAD_CORES}` : 'any core'} (medians of the rounds)`,
  );
}
if (rows.koa !== undefined)
  console.log(
    `koa p99 ${rows.koa.p99} ms (target under 10 ms); with ${CONNECTIONS} connections the mean latency is connections / req/s (Little's law): ${((1000 * CONNECTIONS) / rows.koa.rps).toFixed(1)} ms at this rate`,
  );
for (const base of ['koa', 'koa-webhook-ok']) {
  if (rows[base] === undefined || rows['koa-webhook'] === undefined) continue;
  const rates = runs['koa-webhook'].map((r, i) => r.rps / runs[base][i].rps);
  // CPU per request is the steadier measure on a shared machine: the server is CPU-bound on its core.
  const cpu = runs[base].map((r, i) => r.serverUs / runs['koa-webhook'][i].serverUs);
  console.log(
    `ratio koa-webhook/${base} per round: ${rates.map((r) => r.toFixed(3)).join(', ')}; median ${median(rates).toFixed(3)}; by server CPU per request ${median(cpu).toFixed(3)} (target 0.95 or better: within 5%); mix ${mix}`,
  );
}
if (rows['koa-webhook'] !== undefined) {
  const events =
    mix === 'events'
      ? 'every third request makes an event'
      : 'the new-domain third of requests makes domain.bound events while fresh keys last';
  console.log(
    `webhooks: ${events}; ${silentSockets.size} attempt(s) held open by the never-answering receiver at the end`,
  );
}
if (rows['koa-postgres'] === undefined) {
  if (wanted.has('koa-postgres')) console.log('koa-postgres: SKIPPED (no PostgreSQL binaries)');
} else {
  const pgRatios = ratiosOf('koa-postgres');
  console.log(
    `ratio koa-postgres/bare per round: ${pgRatios.map((r) => r.toFixed(2)).join(', ')}; median ${median(pgRatios).toFixed(2)} (target 0.35 or better); PostgreSQL ${hasTaskset ? `on core(s) ${PG_CORES}` : 'not pinned'}, fsync off (a throwaway cluster)`,
  );
}

/** BENCH_PG_STATS=1: the statements that took the database's time, through the cluster's psql. */
async function printPgStats(url) {
  const sql = `CREATE EXTENSION IF NOT EXISTS pg_stat_statements;
    SELECT calls, round(total_exec_time)::int AS total_ms, round(mean_exec_time::numeric, 3) AS mean_ms,
           left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
      FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 12;`;
  spawnSync(join(pgBinDir, 'psql'), [url, '-c', sql], { stdio: 'inherit' });
}

/**
 * A serve-N row: the real CLI, `licence serve`, with LICENCE_WORKERS=N on its own copy of the
 * SQLite file, the bench's signing key, PORT=0 (the URL is read from the banner on stderr) and
 * TRUST_PROXY=1 like the other rows. LOG_LEVEL=warn (BENCH_SERVE_LOG_LEVEL): the other Koa rows log
 * nothing, so the per-request info line is left out here too.
 */
async function startServe(kind) {
  const env = {
    ...process.env,
    LICENCE_WORKERS: kind.slice('serve-'.length),
    LICENCE_DATA_DIR: serveDataDirs[kind],
    LICENCE_SIGNING_KEY: seed,
    PORT: '0',
    HOST: '127.0.0.1',
    TRUST_PROXY: '1',
    LOG_LEVEL: process.env.BENCH_SERVE_LOG_LEVEL ?? 'warn',
  };
  const args = [join(here, '..', 'dist', 'cli.js'), 'serve'];
  return startServerProcess({
    name: kind,
    args,
    cores: SERVE_CORES,
    env,
    stream: 'stderr',
    portOf: serveBannerPort,
  });
}

/** The cluster's postmaster and its children (backends, writers): the database's processes. */

/**
 * The database URL the koa-postgres server is given: TCP over loopback (the default: the shape of a
 * database on another machine), or with BENCH_PG_SOCKET=1 the cluster's Unix socket (a database on
 * the same machine, as a one-box deployment would connect to it).
 */
function serverDatabaseUrl() {
  if (process.env.BENCH_PG_SOCKET !== '1') return cluster.url;
  const url = new URL(cluster.url);
  return `postgres://${url.username}@/${url.pathname.slice(1)}?host=${encodeURIComponent(cluster.dataDir)}&port=${url.port}`;
}
