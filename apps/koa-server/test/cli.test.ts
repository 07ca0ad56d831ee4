import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeBase64, encodeBase64, publicKeyOf, verifyEnvelope } from '@licence/core';
import type { SignedEnvelope } from '@licence/core';
import { freePort } from '@licence/pg-cluster';
import { afterAll, describe, expect, it } from 'vitest';
import { exerciseAuthorCommands } from './author-commands.js';
import { keySpellings, linesHolding } from './capture-logs.js';
import { allOutput, cleOf as takeCle, runCli, runShell, spawnServe, verdictFrom } from './cli-process.js';
import { parseJson } from './serve-processes.js';

/**
 * The `licence` CLI as users run it: `node dist/cli.js ...` child processes on a temporary data
 * folder (docs/protocol.md#administration), including `serve` and its shutdown on SIGTERM.
 */

const root = mkdtempSync(join(tmpdir(), 'licence-cli-'));
const UA = 'MonTheme/2.1';
const usedKeys: string[] = [];
const authorTokens: string[] = [];
const ADMIN_TOKEN = randomBytes(24).toString('base64url');

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const json = parseJson;
const cleOf = (text: string): string => takeCle(text, usedKeys);
const verdict = (url: string, body: Record<string, unknown>): Promise<SignedEnvelope> => verdictFrom(url, body, UA);

describe('licence serve, then the admin commands on the same data folder', () => {
  const cwd = mkdtempSync(join(root, 'serve-'));
  let url = '';
  let publicKey = '';
  let cle = '';

  it('first start: creates ./data (0700) and signing-key (0600), prints the URL, the public key and the commands', async () => {
    const serve = await spawnServe({ cwd, env: { LICENCE_ADMIN_TOKEN: ADMIN_TOKEN } });
    url = serve.url;
    publicKey = serve.publicKey;
    expect(statSync(join(cwd, 'data')).mode & 0o777).toBe(0o700);
    const keyFile = join(cwd, 'data', 'signing-key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(cwd, 'data', 'licence.db')).isFile()).toBe(true);
    const seed = decodeBase64(readFileSync(keyFile, 'utf8').trim(), 'seed', 32);
    expect(publicKey).toBe(encodeBase64(publicKeyOf(seed)));
    expect(serve.banner).toContain('signing key created');

    // The exact commands the banner printed work as printed (with --json added to read the key).
    const commands = serve.banner.split('\n').filter((line) => line.startsWith('  LICENCE_DATA_DIR='));
    expect(commands).toHaveLength(2);
    const productAdd = await runShell(commands[0] ?? '', { cwd: root });
    expect(productAdd).toMatchObject({ code: 0 });
    expect(productAdd.stdout).toBe('id: my-product\nauthor: me\nname: My product\nstaging: (none)\n');
    const issued = await runShell(`${commands[1] ?? ''} --json`, { cwd: root });
    expect(issued.code).toBe(0);
    cle = cleOf(issued.stdout);
    expect(json(issued.stdout)).toMatchObject({ produit: 'my-product', kind: 'buyer', sites: 1 });

    const envelope = await verdict(url, { cle, url: 'https://boutique.exemple.fr', produit: 'my-product' });
    expect(verifyEnvelope(envelope, [publicKey], { hote: 'boutique.exemple.fr', produit: 'my-product' })).toBe(true);
    expect(envelope.donnees).toMatchObject({ ok: true, domaine: 'exemple.fr' });

    // SIGTERM: a clean exit 0.
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    const stopped = serve.logs.map((line) => json(line)).find((entry) => entry.msg === 'licence service stopped');
    expect(stopped).toBeDefined();
  });

  it("admin commands work on the stopped server's store, with --json", async () => {
    const show = await runCli(['key', 'show', cle, '--json'], { cwd });
    expect(show.code).toBe(0);
    expect(json(show.stdout)).toMatchObject({
      produit: 'my-product',
      kind: 'buyer',
      status: 'active',
      domains: [expect.objectContaining({ domain: 'exemple.fr' })],
    });
    expect(JSON.stringify(json(show.stdout))).not.toContain(cle.replace(/-/g, ''));

    const installations = await runCli(['installations', 'my-product', '--json'], { cwd });
    expect(installations.code).toBe(0);
    expect(json(installations.stdout)).toMatchObject({ produit: 'my-product', count: 1 });

    const trial = await runCli(
      ['key', 'issue', '--produit', 'my-product', '--kind', 'trial', '--expire', '2099-01-01T00:00:00Z', '--json'],
      { cwd },
    );
    expect(trial.code).toBe(0);
    cleOf(trial.stdout);
    expect(json(trial.stdout)).toMatchObject({ kind: 'trial', expire: '2099-01-01T00:00:00Z' });

    const purge = await runCli(['purge', '--json'], { cwd });
    expect(purge).toMatchObject({ code: 0 });
    expect(json(purge.stdout)).toEqual({ erased: 0 });

    // docs/protocol.md#administration: `--json` on every command that prints data, product add
    // included.
    const product = await runCli(
      ['product', 'add', 'other-product', '--author', 'me', '--name', 'Other product', '--json'],
      { cwd },
    );
    expect(product.code).toBe(0);
    expect(json(product.stdout)).toEqual({ id: 'other-product', author: 'me', name: 'Other product', staging: [] });
  });

  it('second start reuses the key and the data: same public key, same verdict; then transfer, regenerate, revoke', async () => {
    const serve = await spawnServe({ cwd });
    expect(serve.publicKey).toBe(publicKey);
    expect(serve.banner).not.toContain('signing key created');
    const again = await verdict(serve.url, { cle, url: 'www.exemple.fr', produit: 'my-product' });
    expect(verifyEnvelope(again, [publicKey], { hote: 'exemple.fr', produit: 'my-product' })).toBe(true);
    expect(again.donnees).toMatchObject({ ok: true, domaine: 'exemple.fr' });

    // Admin commands while the server runs (SQLite WAL: two processes on one file).
    const transfer = await runCli(['key', 'transfer', cle, '--from', 'exemple.fr', '--to', 'nouveau.fr', '--json'], {
      cwd,
    });
    expect(transfer.code).toBe(0);
    const moved = cleOf(transfer.stdout);
    expect((await verdict(serve.url, { cle, url: 'exemple.fr' })).donnees).toMatchObject({
      ok: false,
      motif: 'transfert',
    });
    expect((await verdict(serve.url, { cle: moved, url: 'nouveau.fr' })).donnees).toMatchObject({
      ok: true,
      domaine: 'nouveau.fr',
    });

    const regenerate = await runCli(['key', 'regenerate', moved, '--json'], { cwd });
    expect(regenerate.code).toBe(0);
    const fresh = cleOf(regenerate.stdout);
    expect((await verdict(serve.url, { cle: moved, url: 'nouveau.fr' })).donnees).toMatchObject({
      ok: false,
      motif: 'regeneration',
    });

    const revoke = await runCli(['key', 'revoke', fresh, '--reason', 'chargeback', '--json'], { cwd });
    expect(revoke.code).toBe(0);
    expect(json(revoke.stdout)).toMatchObject({ status: 'revocation' });
    expect((await verdict(serve.url, { cle: fresh, url: 'nouveau.fr' })).donnees).toMatchObject({
      ok: false,
      motif: 'revocation',
    });

    // A second action on a dead key: a conflict, one line with key administration's message and
    // no HTTP status, exit 1.
    const twice = await runCli(['key', 'revoke', fresh], { cwd });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/^licence: key revoke: key [0-9A-Z]{4} is no longer alive \(revocation\)\n$/);
    const unknown = await runCli(['key', 'issue', '--produit', 'nope', '--kind', 'buyer'], { cwd });
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'licence: key issue: no product nope\n' });

    serve.child.kill('SIGINT');
    expect(await serve.exited).toBe(0);
  });

  it('SIGTERM lets a request in flight finish, then exits 0', async () => {
    // debug: the server logs 'request received' once it is reading our request.
    const serve = await spawnServe({ cwd, env: { LOG_LEVEL: 'debug' } });
    const body = JSON.stringify({ cle, url: 'exemple.fr' });
    const target = new URL(`${serve.url}/api/licence`);
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: { 'User-Agent': UA, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      // Half the body now; the rest only once the server has begun shutting down.
      req.write(body.slice(0, 10));
      req.flushHeaders();
      void serve.waitForLog('shutting down').then(() => req.end(body.slice(10)));
    });
    // Signal only once the server is reading this request: it is then in flight, not queued.
    await serve.waitForLog('request received');
    serve.child.kill('SIGTERM');
    const { status, text } = await answer;
    expect(status).toBe(200);
    expect(json(text).donnees).toMatchObject({ ok: false, motif: 'transfert' });
    expect(await serve.exited).toBe(0);
  });
});

describe('licence author: authors and their tokens, on the data folder of a running server (docs/protocol.md#authors)', () => {
  it('adds authors, prints a token that opens the admin API to its own products only, lists and revokes it', async () => {
    const cwd = mkdtempSync(join(root, 'authors-'));
    const serve = await spawnServe({ cwd, env: { LICENCE_ADMIN_TOKEN: ADMIN_TOKEN } });
    try {
      authorTokens.push(...(await exerciseAuthorCommands(serve.url, (args) => runCli(args, { cwd }))));
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited).toBe(0);
    expect(authorTokens).toHaveLength(2);
  });
});

describe('licence CLI errors', () => {
  it('a bad environment value: one line naming it, exit 1, nothing started', async () => {
    const result = await runCli(['serve'], { cwd: root, env: { PORT: '99999', LOG_LEVEL: 'loud' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'licence: PORT: expected an integer 0..65535, got "99999"\n' +
        'licence: LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"\n',
    );
  });

  it('DATABASE_URL whose server is down: serve and an admin command each say so in one line naming it without the password, exit 1', async () => {
    // A port nothing listens on (freed right after it was found free): the connection is refused.
    const port = await freePort();
    const cwd = mkdtempSync(join(root, 'pg-down-'));
    const env = {
      DATABASE_URL: `postgres://licence:s3cret-pw@127.0.0.1:${port}/licence`,
      LICENCE_SIGNING_KEY: encodeBase64(new Uint8Array(32).fill(7)),
    };
    for (const args of [['serve'], ['purge']]) {
      const result = await runCli(args, { cwd, env });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `licence: DATABASE_URL: postgres://127.0.0.1:${port}/licence: cannot open the PostgreSQL store: connect ECONNREFUSED 127.0.0.1:${port}\n`,
      );
      expect(result.stdout).not.toContain('s3cret-pw');
    }
    // Nothing to keep on disk with a configured key: no data folder was created.
    expect(() => statSync(join(cwd, 'data'))).toThrow();
  });

  it('an admin command where there is no database: one line, exit 1, no folder created', async () => {
    const cwd = mkdtempSync(join(root, 'empty-'));
    const result = await runCli(['purge'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^licence: LICENCE_DATA_DIR: no database at .*licence\.db; run `pnpm licence serve` there once first/,
    );
    expect(() => statSync(join(cwd, 'data'))).toThrow();
  });

  it('usage mistakes exit 2 with one line', async () => {
    const unknown = await runCli(['frobnicate'], { cwd: root });
    expect(unknown).toEqual({
      code: 2,
      stdout: '',
      stderr: 'licence: unknown command "frobnicate"; run `pnpm licence --help`\n',
    });
    const kind = await runCli(['key', 'issue', '--produit', 'p', '--kind', 'gold'], { cwd: root });
    expect(kind.code).toBe(2);
    expect(kind.stderr.split('\n')).toHaveLength(2);
  });

  it('a mistyped command or option names the nearest one; an argument that is no key says so; all exit 2 with one line', async () => {
    // docs/protocol.md#the-licence-cli. No data folder here: each one stops before any store is opened.
    const cases: [readonly string[], unknown][] = [
      [
        ['kye', 'show', 'hello'],
        'licence: unknown command "kye"; did you mean "key show"? (run `pnpm licence --help`)\n',
      ],
      [['server'], 'licence: unknown command "server"; did you mean "serve"? (run `pnpm licence --help`)\n'],
      [
        ['key', 'issue', '--prodiut', 'theme', '--kind', 'buyer'],
        expect.stringMatching(
          /^licence: key issue: unknown option --prodiut; did you mean --produit\? \(usage: [^\n]+\)\n$/,
        ),
      ],
      [
        ['key', 'show', 'hello'],
        'licence: key show: "hello" is not a licence key: a key is 25 characters of 0-9 and A-Z without I, L, O or U, as XXXXX-XXXXX-XXXXX-XXXXX-XXXXX (docs/protocol.md#key-normalisation)\n',
      ],
      [
        ['key', 'issue', '--product', 'theme', '--kind', 'trial'],
        expect.stringMatching(/^licence: key issue: --kind trial needs --expire, [^\n]+\n$/),
      ],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args, { cwd: root })));
    expect(results).toEqual(cases.map(([, stderr]) => ({ code: 2, stdout: '', stderr })));
  });

  it('--help prints the usage and exits 0', async () => {
    const help = await runCli(['--help'], { cwd: root });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('licence key transfer <cle> [--from <host>] [--to <host>]');
    expect(help.stdout).toContain('licence author token <id> [--label <l>]');
  });

  it('a bad LICENCE_SIGNING_KEY stops the start without printing it', async () => {
    const secret = Buffer.alloc(31, 8).toString('base64');
    const result = await runCli(['serve'], { cwd: root, env: { LICENCE_SIGNING_KEY: secret } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^licence: LICENCE_SIGNING_KEY: expected 32 bytes, got 31/);
    expect(result.stderr).not.toContain(secret);
  });

  it('PORT in use: one line, exit 1', async () => {
    const cwd = mkdtempSync(join(root, 'busy-'));
    const first = await spawnServe({ cwd });
    const port = new URL(first.url).port;
    const second = await runCli(['serve'], { cwd, env: { PORT: port } });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(`licence: PORT: cannot listen on 127.0.0.1:${port} (EADDRINUSE)\n`);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });
});

describe('licence keygen', () => {
  it('writes a seed file with mode 0600 and prints its public key, never over an existing file', async () => {
    const cwd = mkdtempSync(join(root, 'keygen-'));
    const made = await runCli(['keygen', '--out', 'signing.seed', '--json'], { cwd });
    expect(made.code).toBe(0);
    const result = json(made.stdout);
    const file = join(cwd, 'signing.seed');
    expect(result).toEqual({ publicKey: expect.any(String), file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const seed = decodeBase64(readFileSync(file, 'utf8').trim(), 'seed', 32);
    expect(result.publicKey).toBe(encodeBase64(publicKeyOf(seed)));
    expect(made.stdout).not.toContain(encodeBase64(seed));

    const again = await runCli(['keygen', '--out', 'signing.seed'], { cwd });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`licence: keygen: ${file} already exists; refusing to overwrite a signing key\n`);
    expect(readFileSync(file, 'utf8').trim()).toBe(encodeBase64(seed));

    // The file it wrote serves: LICENCE_SIGNING_KEY_FILE gives the same public key.
    const serve = await spawnServe({ cwd, env: { LICENCE_SIGNING_KEY_FILE: 'signing.seed' } });
    expect(serve.publicKey).toBe(result.publicKey);
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
  });

  it('prints the seed only with --print-seed', async () => {
    const printed = await runCli(['keygen', '--print-seed', '--json'], { cwd: root });
    expect(printed.code).toBe(0);
    const result = json(printed.stdout);
    expect(typeof result.seed).toBe('string');
    expect(result.publicKey).toBe(encodeBase64(publicKeyOf(decodeBase64(result.seed, 'seed', 32))));
  });
});

describe('log hygiene of every process above (docs/protocol.md#privacy)', () => {
  it('no log line and no stderr line holds a full key, the admin token or an author token', () => {
    expect(usedKeys.length).toBeGreaterThanOrEqual(4);
    expect(authorTokens.length).toBeGreaterThan(0);
    const secrets = [...usedKeys.flatMap(keySpellings), ADMIN_TOKEN, ...authorTokens];
    expect(allOutput.stdout.length).toBeGreaterThan(10);
    expect(linesHolding(allOutput.stdout, secrets)).toEqual([]);
    expect(linesHolding(allOutput.stderr, secrets)).toEqual([]);
  });
});
