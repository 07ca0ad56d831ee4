import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adminCall, isRecord, send } from '@licence/http-vector-runner';
import { runCli } from './cli-process.js';
import { foundInDatabaseFiles, openSqliteFile } from './sqlite-file.js';
import { PRODUCT_UA, startTestServer } from './test-server.js';
import type { TestServer } from './test-server.js';

/**
 * docs/protocol.md#privacy: request-log entries older than twelve months are deleted by the purge,
 * their client IPs with them; everything else stays (later entries, keys and the bound domains).
 * A real SQLite store, a clock the test moves, and the file read directly to see what the store
 * really kept, down to its bytes (docs/protocol.md#storage).
 */

const servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** `ms` moved by whole calendar months (UTC), as the retention rule counts them. */
function monthsFrom(ms: number, months: number): number {
  const date = new Date(ms);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.getTime();
}

async function start(clockStartMs: number): Promise<TestServer> {
  // One proxy hop trusted, so each request can come from the address the test names.
  const server = await startTestServer({ clockStartMs, trustProxy: { hops: 1 } });
  servers.push(server);
  return server;
}

const admin = adminCall;

async function issueKey(server: TestServer): Promise<string> {
  await admin(server, 'POST', '/admin/products', { id: 'theme', author: 'atelier', name: 'Thème' });
  const cle = (await admin(server, 'POST', '/admin/keys', { produit: 'theme', kind: 'buyer', sites: 3 })).cle;
  if (typeof cle !== 'string') throw new Error('no cle');
  return cle;
}

/** A verdict request from `ip` (through the one trusted proxy hop); returns `donnees.ok`. */
async function verdictFrom(server: TestServer, ip: string, cle: string, url: string): Promise<unknown> {
  const answer = await send(server.url, {
    method: 'POST',
    path: '/api/licence',
    headers: { 'user-agent': PRODUCT_UA, 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ cle, url }),
  });
  expect(answer.status).toBe(200);
  const body: unknown = JSON.parse(answer.text);
  return isRecord(body) && isRecord(body.donnees) ? body.donnees.ok : undefined;
}

interface LogRow {
  readonly at: number;
  readonly host: string;
  readonly ip: string | null;
  readonly key_id: number | null;
}

/** The request log and the bound domains, read from the file itself. */
function readFile(server: TestServer): { readonly log: LogRow[]; readonly domains: string[] } {
  const db = openSqliteFile(server.dbFile);
  try {
    const log = db.prepare('SELECT at, host, ip, key_id FROM request_log ORDER BY id').all() as LogRow[];
    const domains = (
      db.prepare('SELECT domain FROM bound_domains ORDER BY position').all() as { domain: string }[]
    ).map((row) => row.domain);
    return { log, domains };
  } finally {
    db.close();
  }
}

const ipOf = (log: readonly LogRow[], host: string): string | null | undefined =>
  log.find((row) => row.host === host)?.ip;

const NOW = Date.UTC(2026, 10, 22, 10, 14, 0);

describe('the purge of request-log entries past twelve months (docs/protocol.md#privacy)', () => {
  it('service.purge() deletes the 13-month-old entry, keeps the 11-month-old one and every bound domain', async () => {
    const server = await start(monthsFrom(NOW, -13));
    const cle = await issueKey(server);

    // 13 months ago: a key bound from one address, an unknown key from another.
    expect(await verdictFrom(server, '198.18.0.13', cle, 'ancien.fr')).toBe(true);
    expect(await verdictFrom(server, '198.18.0.99', 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', 'inconnu.fr')).toBe(false);
    // The boundary: one second before the cut-off is deleted; exactly at it is kept (retention.ts).
    server.clock.set(monthsFrom(NOW, -12) - 1000);
    expect(await verdictFrom(server, '198.18.0.12', cle, 'limite.fr')).toBe(true);
    server.clock.set(monthsFrom(NOW, -12));
    expect(await verdictFrom(server, '198.18.1.12', cle, 'blog.ancien.fr')).toBe(true);
    // 11 months ago.
    server.clock.set(monthsFrom(NOW, -11));
    expect(await verdictFrom(server, '198.18.0.11', cle, 'recent.fr')).toBe(true);

    const before = readFile(server);
    expect(before.log.map((row) => row.ip)).toEqual([
      '198.18.0.13',
      '198.18.0.99',
      '198.18.0.12',
      '198.18.1.12',
      '198.18.0.11',
    ]);
    expect(before.domains).toEqual(['ancien.fr', 'limite.fr', 'recent.fr']);

    server.clock.set(NOW);
    expect(await server.service.purge()).toBe(3);

    const after = readFile(server);
    // The whole entry goes, IP and all; the later ones stay as they were, and so do the bindings.
    expect(after.log).toEqual(before.log.filter((row) => row.host === 'blog.ancien.fr' || row.host === 'recent.fr'));
    expect(ipOf(after.log, 'blog.ancien.fr')).toBe('198.18.1.12');
    expect(ipOf(after.log, 'recent.fr')).toBe('198.18.0.11');
    expect(after.domains).toEqual(['ancien.fr', 'limite.fr', 'recent.fr']);
    const shown = await admin(server, 'GET', `/admin/keys/${cle}`);
    expect(shown.domains).toEqual([
      { domain: 'ancien.fr', firstSeen: '2025-10-22T10:14:00Z', lastSeen: '2025-11-22T10:14:00Z' },
      { domain: 'limite.fr', firstSeen: '2025-11-22T10:13:59Z', lastSeen: '2025-11-22T10:13:59Z' },
      { domain: 'recent.fr', firstSeen: '2025-12-22T10:14:00Z', lastSeen: '2025-12-22T10:14:00Z' },
    ]);
    // The binding still answers: a bound domain is not forgotten with the log.
    expect(await verdictFrom(server, '198.18.0.1', cle, 'ancien.fr')).toBe(true);

    // A second run finds nothing more.
    expect(await server.service.purge()).toBe(0);
  });

  it('POST /admin/purge answers the count, and the 11-month-old entry goes once it is past twelve months', async () => {
    const server = await start(monthsFrom(NOW, -13));
    const cle = await issueKey(server);
    expect(await verdictFrom(server, '198.18.0.13', cle, 'ancien.fr')).toBe(true);
    server.clock.set(monthsFrom(NOW, -11));
    expect(await verdictFrom(server, '198.18.0.11', cle, 'recent.fr')).toBe(true);

    server.clock.set(NOW);
    expect(await admin(server, 'POST', '/admin/purge')).toEqual({ erased: 1 });
    expect(readFile(server).log.map((row) => row.ip)).toEqual(['198.18.0.11']);

    // Two months later the second entry is thirteen months old.
    server.clock.set(monthsFrom(NOW, 2));
    expect(await admin(server, 'POST', '/admin/purge')).toEqual({ erased: 1 });
    const after = readFile(server);
    expect(after.log).toEqual([]);
    expect(after.domains).toEqual(['ancien.fr', 'recent.fr']);
    expect(await admin(server, 'POST', '/admin/purge')).toEqual({ erased: 0 });
  });

  it('`licence purge --json` on the same data folder deletes by the real clock', async () => {
    // The CLI runs in its own process on the system clock: the entries are dated from it.
    const realNow = Date.now();
    const server = await start(monthsFrom(realNow, -13));
    const cle = await issueKey(server);
    expect(await verdictFrom(server, '198.18.0.13', cle, 'ancien.fr')).toBe(true);
    server.clock.set(monthsFrom(realNow, -11));
    expect(await verdictFrom(server, '198.18.0.11', cle, 'recent.fr')).toBe(true);

    // SQLite in WAL mode: the CLI may write while the server has the file open
    // (docs/protocol.md#storage).
    const dataDir = dirname(server.dbFile);
    const result = await runCli(['purge', '--json'], { cwd: dataDir, env: { LICENCE_DATA_DIR: dataDir } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ erased: 1 });
    const after = readFile(server);
    expect(after.log.map((row) => row.ip)).toEqual(['198.18.0.11']);
    expect(after.domains).toEqual(['ancien.fr', 'recent.fr']);
  });

  it('leaves none of 300 purged IPs in the bytes of licence.db, -wal and -shm while the server runs (docs/protocol.md#storage)', async () => {
    const server = await start(monthsFrom(NOW, -13));
    const cle = await issueKey(server);
    // 300 verdicts thirteen months ago and 20 last month, each from its own address; 14 characters
    // each, so that no address is a part of another and a match is that very entry.
    const oldIps = Array.from({ length: 300 }, (_, i) => `198.18.${100 + Math.floor(i / 100)}.${100 + (i % 100)}`);
    const recentIps = Array.from({ length: 20 }, (_, i) => `198.19.200.${100 + i}`);
    for (let i = 0; i < oldIps.length; i += 20) {
      const batch = oldIps.slice(i, i + 20).map((ip) => verdictFrom(server, ip, cle, 'boutique.fr'));
      expect(await Promise.all(batch)).toEqual(batch.map(() => true));
    }
    server.clock.set(monthsFrom(NOW, -1));
    for (const ip of recentIps) expect(await verdictFrom(server, ip, cle, 'boutique.fr')).toBe(true);
    // Before the purge every address is on the disk: the scan finds what is there.
    expect(foundInDatabaseFiles(server.dbFile, [...oldIps, ...recentIps])).toHaveLength(320);

    server.clock.set(NOW);
    expect(await server.service.purge()).toBe(300);
    expect(foundInDatabaseFiles(server.dbFile, oldIps)).toEqual([]);
    expect(foundInDatabaseFiles(server.dbFile, recentIps)).toEqual(recentIps);
    expect(readFile(server).log.map((row) => row.ip)).toEqual(recentIps);
  });
});
