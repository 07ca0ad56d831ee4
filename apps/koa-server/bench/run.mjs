// `pnpm bench` in apps/koa-server (issue 3, "Benchmark"; a report, not a test).
// The Koa service on one core with a SQLite store of 100,000 keys, and in the same run a bare
// node:http baseline that parses the body and signs a fixed verdict with node:crypto; autocannon
// on the other core, 50 connections, a mix of bound, new-domain and unknown keys. Prints req/s,
// p50 and p99 for both and their ratio. Only loopback is used.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { generateKey, normalizeKey } from '@licence/core';
import { openSqliteStore } from '@licence/store-sqlite';

const KEYS = Number(process.env.BENCH_KEYS ?? 100_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const here = fileURLToPath(new URL('.', import.meta.url));
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

// The load generator takes core 1; each server gets core 0.
if (hasTaskset && process.env.BENCH_PINNED !== '1') {
  const child = spawnSync('taskset', ['-c', '1', process.execPath, fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PINNED: '1' },
  });
  process.exit(child.status ?? 1);
}

const dir = mkdtempSync(join(tmpdir(), 'licence-bench-'));
const dataFile = join(dir, 'licence.db');
const seed = randomBytes(32).toString('base64');
const hash = (key) => createHash('sha256').update(normalizeKey(key)).digest('hex');

// Half the keys are bound to a domain (the "bound" requests ask that domain again); the other
// half are fresh (each "new-domain" request binds one); "unknown" keys match nothing.
console.log(`seeding ${KEYS.toLocaleString('en')} keys...`);
const seeding = Date.now();
const store = openSqliteStore({ file: dataFile });
await store.addProduct({ id: 'theme', author: 'atelier', name: 'Theme', createdAt: 1795342440 });
const bound = [];
const fresh = [];
const inserts = [];
for (let i = 0; i < KEYS; i++) {
  const cle = generateKey((n) => randomBytes(n));
  const domain = i % 2 === 0 ? `site-${i}.fr` : null;
  (domain === null ? fresh : bound).push({ cle, domain });
  inserts.push(store.insertKey(
    { hash: hash(cle), hint: normalizeKey(cle).slice(-4), produit: 'theme', kind: 'buyer', sites: 1, expiresAt: null, createdAt: 1795342440 },
    domain === null ? [] : [domain],
  ));
}
await Promise.all(inserts);
await store.close();
console.log(`seeded in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);

async function startServer(kind) {
  // BENCH_PROFILE=1 writes a V8 CPU profile of the Koa server to bench/profiles/ (git-ignored).
  const profile = process.env.BENCH_PROFILE === '1' && kind === 'koa' ? ['--cpu-prof', `--cpu-prof-dir=${join(here, 'profiles')}`] : [];
  const args = [...profile, join(here, 'server-child.mjs'), kind, dataFile, seed];
  const child = hasTaskset ? spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] }) : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      const match = /listening (\d+)/.exec(String(chunk));
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return { port, stop: () => new Promise((resolve) => { child.on('exit', resolve); child.kill('SIGTERM'); }) };
}

let counter = 0;
function nextBody() {
  const n = counter++;
  const pick = n % 3;
  if (pick === 0) {
    const k = bound[n % bound.length];
    return { cle: k.cle, url: `https://www.${k.domain}/` };
  }
  if (pick === 1) {
    const k = fresh[Math.floor(n / 3) % fresh.length];
    return { cle: k.cle, url: `https://new-${Math.floor(n / 3) % fresh.length}.fr/` };
  }
  return { cle: 'ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-' + String(n % 100000).padStart(5, '0'), url: 'unknown.fr' };
}
// RFC 2544 benchmarking range: one address per request, so the 30-per-minute limit of one
// client is not what gets measured. It only ever travels in a header over loopback.
const forwarded = (n) => `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;

async function load(port) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [{
      method: 'POST',
      path: '/api/licence',
      setupRequest: (request) => {
        const body = JSON.stringify(nextBody());
        return { ...request, body, headers: { 'content-type': 'application/json', 'user-agent': 'LicenceBench/1.0', 'x-forwarded-for': forwarded(counter) } };
      },
    }],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, total: result.requests.total };
}

const rows = {};
for (const kind of ['bare', 'koa']) {
  const server = await startServer(kind);
  await load(server.port); // warm-up pass, not reported
  counter = 0;
  rows[kind] = await load(server.port);
  await server.stop();
}
rmSync(dir, { recursive: true, force: true });

const line = (name, r) => `| ${name} | ${Math.round(r.rps).toLocaleString('en')} | ${r.p50} | ${r.p99} | ${r.total.toLocaleString('en')} | ${r.non2xx} | ${r.errors} |`;
console.log(`\n${KEYS.toLocaleString('en')} keys, ${CONNECTIONS} connections, ${DURATION} s, ${hasTaskset ? 'server on core 0, load on core 1' : 'NOT pinned (no taskset)'}`);
console.log('| server | req/s | p50 ms | p99 ms | requests | non-2xx | errors |');
console.log('|---|---|---|---|---|---|---|');
console.log(line('bare node:http + node:crypto sign', rows.bare));
console.log(line('Koa + @licence/service + SQLite', rows.koa));
console.log(`\nratio koa/bare: ${(rows.koa.rps / rows.bare.rps).toFixed(2)} (target 0.6 or better); koa p99 ${rows.koa.p99} ms (target under 10 ms)`);
