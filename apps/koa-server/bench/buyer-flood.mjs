// `pnpm --filter @licence/koa-server bench:buyer-flood` (after `pnpm build`; a report, not a test).
// Whether a flood of forged buyer links is a lever on the server's CPU (docs/protocol.md#buyer-links):
// the real `licence serve` (dist/cli.js, one process, SQLite, LOG_LEVEL=warn) on core 0; autocannon on
// core 1 asks for `/buyer/<forged token>` over BUYER_FLOOD_CONNECTIONS (6) connections from
// 127.0.0.1, a well-formed payload (`9999999999.1.ABCD`) with 64 bytes of signature, while another
// client asks for verdicts one after another (bench/verdict-sampler.mjs, a process of its own, a
// pause of BUYER_FLOOD_PAUSE_MS, 10, between two) from 127.0.0.2 onwards, 30 per address (the
// public endpoint's own limit). First the verdicts alone, then with the flood, then with the flood
// spread over 20,000 addresses (TRUST_PROXY=1, one X-Forwarded-For each in turn, from the RFC 2544
// benchmarking range as bench/run.mjs does), each under its limit, so every token's signature is
// checked (node:crypto); BUYER_FLOOD_SECONDS (10) each, in BUYER_FLOOD_ROUNDS (3) rounds. Prints the
// flood's req/s and its share of 429s, the server's cores, and the verdicts' p50 and p99 in each
// phase (medians of the rounds).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { cpuMs, hasTaskset, treePids } from './proc-stats.mjs';
import { serveBannerPort, startServerProcess } from './server-process.mjs';

const CONNECTIONS = Number(process.env.BUYER_FLOOD_CONNECTIONS ?? 6);
const SECONDS = Number(process.env.BUYER_FLOOD_SECONDS ?? 10);
const ROUNDS = Number(process.env.BUYER_FLOOD_ROUNDS ?? 3);
const PAUSE_MS = Number(process.env.BUYER_FLOOD_PAUSE_MS ?? 10);
const LOAD_CORES = process.env.BENCH_LOAD_CORES ?? '1';
const here = fileURLToPath(new URL('.', import.meta.url));

// This script, autocannon in it and the sampler it starts run on LOAD_CORES, the server on core 0.
if (hasTaskset && process.env.BENCH_PINNED !== '1') {
  const child = spawnSync('taskset', ['-c', LOAD_CORES, process.execPath, fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PINNED: '1' },
  });
  process.exit(child.status ?? 1);
}

const FORGED = `${Buffer.from('9999999999.1.ABCD').toString('base64url')}.${randomBytes(64).toString('base64url')}`;
const adminToken = randomBytes(32).toString('base64url');
const dir = mkdtempSync(join(tmpdir(), 'licence-buyer-flood-'));
const server = await startServerProcess({
  name: 'licence serve',
  args: [join(here, '..', 'dist', 'cli.js'), 'serve'],
  env: {
    ...process.env,
    LICENCE_DATA_DIR: dir,
    LICENCE_SIGNING_KEY: randomBytes(32).toString('base64'),
    LICENCE_ADMIN_TOKEN: adminToken,
    PORT: '0',
    HOST: '127.0.0.1',
    // The spread phase names its clients in X-Forwarded-For; without the header, the socket's address.
    TRUST_PROXY: '1',
    LOG_LEVEL: 'warn',
  },
  stream: 'stderr',
  portOf: serveBannerPort,
});
const base = `http://127.0.0.1:${server.port}`;

/** An admin call that must answer 201; its JSON. */
async function admin(path, body) {
  const answer = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  return answer.json();
}

await admin('/admin/products', { id: 'theme', author: 'atelier', name: 'Theme' });
const { cle } = await admin('/admin/keys', { produit: 'theme', kind: 'buyer', sites: 1 });

/** The sampler's verdicts for `seconds`, from the address of index `first` onwards. */
function sample(first, seconds) {
  const args = [join(here, 'verdict-sampler.mjs'), String(server.port), cle, String(first), String(seconds)];
  const child = spawn(process.execPath, [...args, String(PAUSE_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += String(chunk);
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`sampler exited ${code}`))));
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (result) => {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), statuses: result.statuses };
};

/** 20,000 addresses of 198.18.0.0/15 (RFC 2544), in turn: a few requests each, under the limit. */
let spreadCounter = 0;
const spreadAddress = () => {
  const i = spreadCounter++ % 20_000;
  return `198.18.${i >> 8}.${i & 255}`;
};

/** The flood (`spread`: over many addresses) and, beside it, the verdicts from the address `first` on. */
async function floodPhase(first, spread) {
  const cpuBefore = cpuMs(treePids(server.pid));
  const loadBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const request = { method: 'GET', path: `/buyer/${FORGED}` };
  const setupRequest = (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': spreadAddress() } });
  const [flood, verdicts] = await Promise.all([
    autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [spread ? { ...request, setupRequest } : request],
    }),
    sample(first, SECONDS),
  ]);
  const wall = performance.now() - wallBefore;
  const serverMs = cpuMs(treePids(server.pid)) - cpuBefore;
  const serverCores = serverMs / wall;
  // The steadier measure on a shared machine: the server's CPU time per flood request (the few
  // verdicts beside it, about 1 in 50 requests, are counted in too).
  const serverUs = (1000 * serverMs) / flood.requests.total;
  // This process's share of a core: autocannon's (the sampler is a process of its own).
  const load = process.cpuUsage(loadBefore);
  const loadCores = (load.user + load.system) / 1000 / wall;
  const codes = Object.fromEntries(Object.entries(flood.statusCodeStats).map(([code, stats]) => [code, stats.count]));
  return { flood, codes, serverCores, serverUs, loadCores, verdicts: summary(verdicts) };
}

/** The verdicts alone, for comparison, from the address `first` on. */
async function quietPhase(first) {
  return { verdicts: summary(await sample(first, SECONDS)) };
}

// Rounds of the three phases in turn, so that a machine whose speed drifts (others' work on a
// shared VM) slows all alike; each phase's sampler starts on addresses no other used (a whole window).
const PHASES = [
  ['verdicts alone', (first) => quietPhase(first)],
  ['forged buyer links from 127.0.0.1', (first) => floodPhase(first, false)],
  ['forged buyer links from 20,000 addresses (each signature checked)', (first) => floodPhase(first, true)],
];
const runs = PHASES.map(() => []);
// The machine's load average, said beside the figures: other work on a shared machine moves the tail.
const loadAtStart = loadavg()[0];
for (let round = 0; round < ROUNDS; round++) {
  for (const [index, [, run]] of PHASES.entries()) runs[index].push(await run(1000 * (PHASES.length * round + index)));
}
await server.stop();
rmSync(dir, { recursive: true, force: true });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => value.toFixed(1);
const addCodes = (list) => {
  const codes = {};
  for (const phase of list)
    for (const [code, count] of Object.entries(phase.codes)) codes[code] = (codes[code] ?? 0) + count;
  return codes;
};
const row = (name, list) => {
  const verdicts = `${list.reduce((sum, phase) => sum + phase.verdicts.n, 0)} | ${ms(median(list.map((phase) => phase.verdicts.p50)))} | ${ms(median(list.map((phase) => phase.verdicts.p99)))} (${list.map((phase) => ms(phase.verdicts.p99)).join(', ')})`;
  if (list[0].flood === undefined) return `| ${name} | - | - | - | - | - | ${verdicts} |`;
  const codes = addCodes(list);
  const answered = Object.values(codes).reduce((sum, count) => sum + count, 0);
  const share = answered === 0 ? 0 : (codes['429'] ?? 0) / answered;
  const rate = Math.round(median(list.map((phase) => phase.flood.requests.average))).toLocaleString('en');
  const cores = median(list.map((phase) => phase.serverCores)).toFixed(2);
  const us = Math.round(median(list.map((phase) => phase.serverUs)));
  return `| ${name} | ${rate} | ${JSON.stringify(codes)} | ${(100 * share).toFixed(2)}% | ${cores} | ${us} | ${verdicts} |`;
};
console.log(
  `\nlicence serve (SQLite, one process) on ${hasTaskset ? `core 0, load on core(s) ${LOAD_CORES}` : 'any core (NOT pinned: no taskset)'}; ${ROUNDS} rounds of ${SECONDS} s per phase (medians of the rounds), flood of ${CONNECTIONS} connections`,
);
console.log(
  '| phase | flood req/s | flood answers | 429 share | server cores | server CPU µs/request | verdicts | verdict p50 ms | verdict p99 ms (each round) |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [index, [name]] of PHASES.entries()) console.log(row(name, runs[index]));
const statuses = runs.map((list) =>
  JSON.stringify(addCodes(list.map((phase) => ({ codes: phase.verdicts.statuses })))),
);
console.log(`verdict statuses by phase: ${statuses.join(', ')}`);
for (const [index, [name]] of PHASES.entries()) {
  const floods = runs[index].filter((phase) => phase.flood !== undefined);
  if (floods.length === 0) continue;
  const errors = floods.reduce((sum, phase) => sum + phase.flood.errors + phase.flood.timeouts, 0);
  const loadCores = median(floods.map((phase) => phase.loadCores)).toFixed(2);
  console.log(`${name}: flood errors and timeouts ${errors}; its load generator ${loadCores} of a core`);
}
console.log(
  `machine load average (1 min): ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`,
);
const p99 = median(runs[1].map((phase) => phase.verdicts.p99));
console.log(`verdict p99 with the flood from one address ${ms(p99)} ms (target under 20 ms)`);
