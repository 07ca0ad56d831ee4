import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeBase64, encodeBase64, publicKeyOf, verifyEnvelope } from '@licence/core';
import type { SignedEnvelope } from '@licence/core';
import { afterAll, describe, expect, it } from 'vitest';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import { exerciseAuthorCommands } from './author-commands.js';
import { keySpellings, linesHolding } from './capture-logs.js';
import { allOutput, cleOf as takeCle, runCli, runShell, spawnServe, verdictFrom } from './cli-process.js';
import { parseJson } from './serve-processes.js';

/**
 * `licence serve` and the admin commands with DATABASE_URL, as users run them (child
 * processes of dist/cli.js) on a throwaway PostgreSQL cluster: the store and the rate limit are
 * the database's, the signing key still the data folder's embedded key file.
 */

// Without the binaries: skipped with one loud line outside CI; with CI=true this rejects.
const postgres = await throwawayPostgres('koa-server CLI on PostgreSQL');

const root = mkdtempSync(join(tmpdir(), 'licence-cli-pg-'));
const UA = 'MonTheme/2.1';
const usedKeys: string[] = [];
const authorTokens: string[] = [];
const ADMIN_TOKEN = randomBytes(24).toString('base64url');

afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
});

const json = parseJson;
const cleOf = (text: string): string => takeCle(text, usedKeys);
const verdict = (url: string, body: Record<string, unknown>): Promise<SignedEnvelope> => verdictFrom(url, body, UA);

describe.skipIf(!postgres.available)('licence serve and the admin commands with DATABASE_URL (PostgreSQL)', () => {
  it('serves from PostgreSQL with the embedded key file; the printed commands and the admin commands use the same database', async () => {
    const cluster = postgres.cluster();
    const databaseUrl = await cluster.createDatabase();
    const cwd = mkdtempSync(join(root, 'serve-'));
    const serve = await spawnServe({ cwd, env: { DATABASE_URL: databaseUrl } });
    try {
      // The signing key: the embedded default's file, printed; no SQLite file beside it.
      const keyFile = join(cwd, 'data', 'signing-key');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(serve.banner).toContain(`signing key created: ${keyFile}`);
      expect(() => statSync(join(cwd, 'data', 'licence.db'))).toThrow();
      expect(serve.publicKey).toBe(
        encodeBase64(publicKeyOf(decodeBase64(readFileSync(keyFile, 'utf8').trim(), 'seed', 32))),
      );
      expect(serve.banner).toContain(`database: PostgreSQL (DATABASE_URL) ${databaseUrl}\n`);

      // The exact commands the banner printed work as printed, from another folder: they reach the
      // database through DATABASE_URL, not a data folder.
      const elsewhere = mkdtempSync(join(root, 'elsewhere-'));
      const commands = serve.banner.split('\n').filter((line) => line.startsWith('  DATABASE_URL='));
      expect(commands).toHaveLength(2);
      const productAdd = await runShell(commands[0] ?? '', { cwd: elsewhere });
      expect(productAdd).toMatchObject({
        code: 0,
        stdout: 'id: my-product\nauthor: me\nname: My product\nstaging: (none)\n',
      });
      const issued = await runShell(`${commands[1] ?? ''} --json`, { cwd: elsewhere });
      expect(issued.code).toBe(0);
      const cle = cleOf(issued.stdout);
      expect(() => statSync(join(elsewhere, 'data'))).toThrow();

      const envelope = await verdict(serve.url, { cle, url: 'https://boutique.exemple.fr', produit: 'my-product' });
      expect(verifyEnvelope(envelope, [serve.publicKey], { hote: 'boutique.exemple.fr', produit: 'my-product' })).toBe(
        true,
      );
      expect(envelope.donnees).toMatchObject({ ok: true, domaine: 'exemple.fr' });

      // Admin commands while the server runs, on the same database.
      const env = { DATABASE_URL: databaseUrl };
      const show = await runCli(['key', 'show', cle, '--json'], { cwd: elsewhere, env });
      expect(show.code).toBe(0);
      expect(json(show.stdout)).toMatchObject({
        produit: 'my-product',
        status: 'active',
        domains: [expect.objectContaining({ domain: 'exemple.fr' })],
      });
      const installations = await runCli(['installations', 'my-product', '--json'], { cwd: elsewhere, env });
      expect(installations.code).toBe(0);
      expect(json(installations.stdout)).toMatchObject({ produit: 'my-product', count: 1 });
      const revoke = await runCli(['key', 'revoke', cle, '--reason', 'chargeback', '--json'], { cwd: elsewhere, env });
      expect(revoke.code).toBe(0);
      const revoked = await verdict(serve.url, { cle, url: 'exemple.fr', produit: 'my-product' });
      expect(verifyEnvelope(revoked, [serve.publicKey], { hote: 'exemple.fr', produit: 'my-product' })).toBe(true);
      expect(revoked.donnees).toMatchObject({ ok: false, motif: 'revocation' });
      const purge = await runCli(['purge', '--json'], { cwd: elsewhere, env });
      expect(purge.code).toBe(0);
      expect(json(purge.stdout)).toEqual({ erased: 0 });

      // /healthz answers from the database.
      const health = await fetch(`${serve.url}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited).toBe(0);

    // A second start on the same database and key file: same public key, the key still revoked.
    const again = await spawnServe({ cwd, env: { DATABASE_URL: databaseUrl } });
    try {
      expect(again.banner).not.toContain('signing key created');
      const cle = usedKeys[0] ?? '';
      expect((await verdict(again.url, { cle, url: 'exemple.fr' })).donnees).toMatchObject({
        ok: false,
        motif: 'revocation',
      });
    } finally {
      again.child.kill('SIGTERM');
    }
    expect(await again.exited).toBe(0);
  });

  it('shares the rate limit through the database: the 31st verdict in a minute from one client is a 429 with Retry-After', async () => {
    const cluster = postgres.cluster();
    const databaseUrl = await cluster.createDatabase();
    const cwd = mkdtempSync(join(root, 'limit-'));
    const serve = await spawnServe({
      cwd,
      env: { DATABASE_URL: databaseUrl, LICENCE_SIGNING_KEY: encodeBase64(new Uint8Array(32).fill(9)) },
    });
    try {
      // A configured key and PostgreSQL: nothing to keep on disk, no data folder.
      expect(() => statSync(join(cwd, 'data'))).toThrow();
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 31; i += 1) {
        const response = await fetch(`${serve.url}/api/licence`, {
          method: 'POST',
          headers: { 'User-Agent': UA, 'Content-Type': 'application/json' },
          body: JSON.stringify({ cle: 'ABCD-EFGH-JKLM-NPQR', url: 'exemple.fr' }),
        });
        statuses.push(response.status);
        if (response.status === 429) retryAfter = response.headers.get('retry-after');
        await response.arrayBuffer();
      }
      expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
      expect(statuses[30]).toBe(429);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited).toBe(0);
  });

  it('the author commands work on the database of DATABASE_URL, and their token on the server using it', async () => {
    const databaseUrl = await postgres.cluster().createDatabase();
    const cwd = mkdtempSync(join(root, 'authors-'));
    const serve = await spawnServe({
      cwd,
      env: {
        DATABASE_URL: databaseUrl,
        LICENCE_SIGNING_KEY: encodeBase64(new Uint8Array(32).fill(5)),
        LICENCE_ADMIN_TOKEN: ADMIN_TOKEN,
      },
    });
    const elsewhere = mkdtempSync(join(root, 'authors-cli-'));
    try {
      const cli = (args: readonly string[]) => runCli(args, { cwd: elsewhere, env: { DATABASE_URL: databaseUrl } });
      authorTokens.push(...(await exerciseAuthorCommands(serve.url, cli)));
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited).toBe(0);
    // Nothing on disk: PostgreSQL and a configured key.
    expect(() => statSync(join(elsewhere, 'data'))).toThrow();
  });

  it('never writes a key or an author token in any output', () => {
    const secrets = [...usedKeys.flatMap(keySpellings), ...authorTokens, ADMIN_TOKEN];
    expect(usedKeys.length).toBeGreaterThan(0);
    expect(authorTokens.length).toBeGreaterThan(0);
    expect(linesHolding([...allOutput.stdout, ...allOutput.stderr], secrets)).toEqual([]);
  });
});
