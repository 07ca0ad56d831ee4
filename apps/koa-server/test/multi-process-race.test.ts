import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeBase64, isRecord, parseHost, verifyEnvelope } from '@licence/core';
import { afterAll, describe, expect, it } from 'vitest';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import { keySpellings, linesHolding } from './capture-logs.js';
import { allOutput, runCli, spawnServe } from './cli-process.js';
import type { ServeProcess } from './cli-process.js';
import { benchmarkAddress, parseJson, postVerdict, stopAll } from './serve-processes.js';

/**
 * The race: two `licence serve` processes on one store, a key that allows 3 domains, 100
 * concurrent first calls from 100 different domains spread over both processes. The binding is
 * atomic across processes (docs/protocol.md#key-lifecycle: a buyer key binds at most its N
 * registrable domains), so exactly 3 calls answer ok and 97 answer `autre_domaine`, whichever
 * process each landed on, and 3 domains are bound. Once on PostgreSQL (one database), once on
 * SQLite (one file, two processes).
 */

const postgres = await throwawayPostgres('koa-server multi-process race on PostgreSQL');

const root = mkdtempSync(join(tmpdir(), 'licence-race-'));
const CALLS = 100;
const SITES = 3;
const PRODUIT = 'theme';
const usedKeys: string[] = [];

afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
});

/** Call i's page: on the registrable domain site-i.fr, under www (the verdict's hote is core's normal form). */
const urlOf = (i: number): string => `https://www.site-${i}.fr/`;

/** Adds the product and issues a 3-site key through the CLI on the store `env` names; the key. */
async function issueKey(cwd: string, env: Record<string, string>): Promise<string> {
  const product = await runCli(['product', 'add', PRODUIT, '--author', 'atelier', '--name', 'Theme'], { cwd, env });
  expect(product.code).toBe(0);
  const issued = await runCli(
    ['key', 'issue', '--produit', PRODUIT, '--kind', 'buyer', '--sites', String(SITES), '--json'],
    { cwd, env },
  );
  expect(issued.code).toBe(0);
  const cle = parseJson(issued.stdout).cle;
  if (typeof cle !== 'string') throw new Error('key issue printed no cle');
  usedKeys.push(cle);
  return cle;
}

/**
 * The race itself: call i goes to process i % 2, from domain site-i.fr and its own client address
 * (so the per-client limit of docs/protocol.md#rate-limit never interferes), all sent at once.
 */
async function race(
  servers: readonly ServeProcess[],
  cle: string,
  cwd: string,
  env: Record<string, string>,
): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: CALLS }, (_, i) => {
      const server = servers[i % servers.length];
      if (server === undefined) throw new Error('no server');
      return postVerdict(server.url, { cle, url: urlOf(i), produit: PRODUIT }, benchmarkAddress(i));
    }),
  );
  expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: CALLS }, () => 200));
  const okDomains: string[] = [];
  const motifs = new Map<string, number>();
  answers.forEach((answer, i) => {
    const envelope: unknown = JSON.parse(answer.text);
    // Every process signs with the same key: any answer verifies against the one public key.
    const publicKeys = servers.map((server) => server.publicKey);
    expect(new Set(publicKeys).size).toBe(1);
    expect(
      verifyEnvelope(envelope, publicKeys, { hote: parseHost(urlOf(i)).hote, produit: PRODUIT }),
      answer.text,
    ).toBe(true);
    const donnees = parseJson(answer.text).donnees;
    if (!isRecord(donnees)) throw new Error('no donnees');
    const { ok, motif } = donnees;
    if (ok === true) okDomains.push(`site-${i}.fr`);
    else motifs.set(String(motif), (motifs.get(String(motif)) ?? 0) + 1);
  });
  expect(okDomains).toHaveLength(SITES);
  expect(Object.fromEntries(motifs)).toEqual({ autre_domaine: CALLS - SITES });

  // The store holds exactly the 3 domains that were answered ok.
  const show = await runCli(['key', 'show', cle, '--json'], { cwd, env });
  expect(show.code).toBe(0);
  const domains = parseJson(show.stdout).domains;
  if (!Array.isArray(domains)) throw new Error('key show printed no domains');
  expect(domains.map((entry: unknown) => (isRecord(entry) ? entry.domain : undefined)).sort()).toEqual(
    [...okDomains].sort(),
  );
}

/**
 * Each process answered its half of the race: its own access log says so (one "request" line a
 * call). Read after the processes exited, so every line they wrote has arrived.
 */
function expectHalfEach(servers: readonly ServeProcess[]): void {
  for (const server of servers) {
    const served = server.logs
      .map(parseJson)
      .filter((entry) => entry.msg === 'request' && entry.route === '/api/licence');
    expect(served).toHaveLength(CALLS / servers.length);
  }
}

describe.skipIf(!postgres.available)('two processes on one PostgreSQL database', () => {
  it('100 concurrent first calls from 100 domains on a 3-site key: exactly 3 ok, 97 autre_domaine, 3 domains bound', async () => {
    const cluster = postgres.cluster();
    const env = { DATABASE_URL: await cluster.createDatabase() };
    const cwd = mkdtempSync(join(root, 'pg-'));
    // One configured signing key for both processes, as behind a load balancer (README "On PostgreSQL").
    const serveEnv = { ...env, TRUST_PROXY: '1', LICENCE_SIGNING_KEY: encodeBase64(new Uint8Array(32).fill(7)) };
    const servers = await Promise.all([spawnServe({ cwd, env: serveEnv }), spawnServe({ cwd, env: serveEnv })]);
    try {
      const cle = await issueKey(cwd, env);
      await race(servers, cle, cwd, env);
    } finally {
      expect(await stopAll(servers)).toEqual([0, 0]);
    }
    expectHalfEach(servers);
  });
});

/**
 * The same race against ONE `licence serve` with LICENCE_WORKERS=2 (README "Workers"): both workers
 * answer some of the calls (each worker's log lines carry its id), and the outcome is as exact.
 */
async function raceWorkers(cwd: string, env: Record<string, string>): Promise<void> {
  const serve = await spawnServe({ cwd, env: { ...env, TRUST_PROXY: '1', LICENCE_WORKERS: '2' } });
  try {
    const cle = await issueKey(cwd, env);
    await race([serve], cle, cwd, env);
  } finally {
    expect(await stopAll([serve])).toEqual([0]);
  }
  const workers = serve.logs
    .map(parseJson)
    .filter((entry) => entry.msg === 'request' && entry.route === '/api/licence')
    .map((entry) => entry.worker);
  expect(workers).toHaveLength(CALLS);
  expect(new Set(workers)).toEqual(new Set([1, 2]));
}

describe.skipIf(!postgres.available)('one licence serve with LICENCE_WORKERS=2 on PostgreSQL', () => {
  it('100 concurrent first calls from 100 domains on a 3-site key: exactly 3 ok, 97 autre_domaine, 3 domains bound', async () => {
    const cwd = mkdtempSync(join(root, 'pg-workers-'));
    await raceWorkers(cwd, { DATABASE_URL: await postgres.cluster().createDatabase() });
  });
});

describe('one licence serve with LICENCE_WORKERS=2 on SQLite', () => {
  it('100 concurrent first calls from 100 domains on a 3-site key: exactly 3 ok, 97 autre_domaine, 3 domains bound', async () => {
    const cwd = mkdtempSync(join(root, 'sqlite-workers-'));
    await raceWorkers(cwd, { LICENCE_DATA_DIR: join(cwd, 'data') });
  });
});

describe('two processes on one SQLite file', () => {
  it('100 concurrent first calls from 100 domains on a 3-site key: exactly 3 ok, 97 autre_domaine, 3 domains bound', async () => {
    const cwd = mkdtempSync(join(root, 'sqlite-'));
    const env = { LICENCE_DATA_DIR: join(cwd, 'data') };
    // The first process creates the data folder, the file and the signing key; the second opens
    // the same ones (same LICENCE_DATA_DIR, so the same embedded key file).
    const first = await spawnServe({ cwd, env: { ...env, TRUST_PROXY: '1' } });
    const servers = [first];
    try {
      servers.push(await spawnServe({ cwd, env: { ...env, TRUST_PROXY: '1' } }));
      const second = servers[1];
      expect(second?.banner).not.toContain('signing key created');
      const cle = await issueKey(cwd, env);
      await race(servers, cle, cwd, env);
    } finally {
      expect(await stopAll(servers)).toEqual(servers.map(() => 0));
    }
    expectHalfEach(servers);
  });

  it('never writes a key in any output', () => {
    expect(usedKeys.length).toBeGreaterThan(0);
    expect(linesHolding([...allOutput.stdout, ...allOutput.stderr], usedKeys.flatMap(keySpellings))).toEqual([]);
  });
});
