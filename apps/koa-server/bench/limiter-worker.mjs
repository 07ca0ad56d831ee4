// A worker of `pnpm bench:limiter` (bench/limiter.mjs, node:cluster): one way of sharing the rate
// limit of docs/protocol.md#rate-limit between two processes, chosen by LIMITER_WAY:
// - `local`: a reference that does NOT share: this process's own memory limiter;
// - `ipc`: this server's worker limiter (createWorkerRateLimiter), asking the primary over IPC;
// - `sqlite-hit` / `sqlite-turn`: a prototype that is NOT in the server: a window table in the
//   service's SQLite file, one BEGIN IMMEDIATE per hit or per event-loop turn;
// - `postgres`: @licence/store-postgres's limiter on LIMITER_DB.
// The primary sends {type: 'exact'} (N hits from one address) and {type: 'load'} (hits from many
// addresses, `inFlight` at a time, for `seconds`); this worker answers with its counts, its CPU
// time and its latencies.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { formatIpv4 } from '@licence/core';
import { createMemoryRateLimiter, retryAfterSeconds, slidingWindow } from '@licence/service';
import { createPostgresRateLimiter } from '@licence/store-postgres';
import { BUSY_TIMEOUT_MS } from '@licence/store-sqlite';
import { createWorkerRateLimiter } from '../dist/index.js';

const way = process.env.LIMITER_WAY;
const limiter = await open(way, process.env.LIMITER_DB);

async function open(name, db) {
  if (name === 'local') return createMemoryRateLimiter();
  if (name === 'ipc') return createWorkerRateLimiter(process);
  if (name === 'postgres') return createPostgresRateLimiter({ connectionString: db });
  if (name === 'sqlite-hit' || name === 'sqlite-turn') return sqliteLimiter(db, name === 'sqlite-turn');
  throw new Error(`LIMITER_WAY: local, ipc, sqlite-hit, sqlite-turn or postgres, got ${name}`);
}

/**
 * The prototype: the same sliding window log as the memory limiter, kept in `bench_rate_windows`
 * (one row per client, its times as JSON) of the service's file, opened as the store opens it
 * (WAL, synchronous NORMAL, its busy_timeout). better-sqlite3 comes from the store's own
 * dependencies: the server does not depend on it.
 */
function sqliteLimiter(file, perTurn) {
  const require = createRequire(import.meta.resolve('@licence/store-sqlite'));
  const Database = require('better-sqlite3');
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const { limit, windowMs } = slidingWindow({});
  const read = db.prepare('SELECT hits FROM bench_rate_windows WHERE client = ?').pluck();
  const write = db.prepare(
    'INSERT INTO bench_rate_windows (client, hits) VALUES (?, ?) ON CONFLICT (client) DO UPDATE SET hits = excluded.hits',
  );
  const one = ({ client, nowMs }) => {
    const stored = read.get(client);
    const times = (stored === undefined ? [] : JSON.parse(stored)).filter((time) => time + windowMs > nowMs);
    if (times.length >= limit) return { allowed: false, retryAfter: retryAfterSeconds(times[0], windowMs, nowMs) };
    times.push(Math.max(nowMs, times.at(-1) ?? nowMs));
    write.run(client, JSON.stringify(times));
    return { allowed: true, retryAfter: 0 };
  };
  const batch = db.transaction((hits) => hits.map(one));
  if (!perTurn) return { hit: (client, nowMs) => Promise.resolve(batch.immediate([{ client, nowMs }])[0]) };
  let queued = [];
  const flush = () => {
    const hits = queued;
    queued = [];
    const verdicts = batch.immediate(hits.map((entry) => entry.hit));
    for (const [i, entry] of hits.entries()) entry.resolve(verdicts[i]);
  };
  return {
    hit: (client, nowMs) =>
      new Promise((resolve) => {
        if (queued.length === 0) setImmediate(flush);
        queued.push({ hit: { client, nowMs }, resolve });
      }),
  };
}

/** `count` hits from one address, all at once: how many were allowed. */
async function exact({ client, count }) {
  const verdicts = await Promise.all(Array.from({ length: count }, () => limiter.hit(client, Date.now())));
  return { allowed: verdicts.filter((verdict) => verdict.allowed).length };
}

/** `inFlight` loops, each awaiting one hit then sending the next, for `seconds`. */
async function load({ seconds, inFlight, addresses, offset }) {
  const latencies = [];
  let next = offset;
  let refused = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const client = formatIpv4(0xc6120000 + (next % addresses)); // 198.18.0.0/15 (RFC 2544)
      next += 1;
      const sent = performance.now();
      const verdict = await limiter.hit(client, Date.now());
      latencies.push(performance.now() - sent);
      if (!verdict.allowed) refused += 1;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, loop));
  const used = process.cpuUsage(cpu);
  last = latencies;
  return {
    hits: latencies.length,
    refused,
    elapsedMs: performance.now() - started,
    cpuMs: (used.user + used.system) / 1000,
  };
}

/** The latencies of the last load, in µs, asked apart (see bench/limiter.mjs). */
let last = [];

process.on('message', async (message) => {
  if (message?.type === 'exact') process.send({ type: 'exact-done', ...(await exact(message)) });
  if (message?.type === 'load') process.send({ type: 'load-done', ...(await load(message)) });
  if (message?.type === 'latencies') {
    process.send({ type: 'latencies-done', latencies: last.map((ms) => Math.round(ms * 1000)) });
  }
  if (message?.type === 'stop') {
    await limiter.close?.();
    process.disconnect();
  }
});
process.send({ type: 'ready' });
