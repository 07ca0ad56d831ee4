import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { send } from '@licence/http-vector-runner';
import type { HttpAnswer } from '@licence/http-vector-runner';
import { freePort } from '@licence/pg-cluster';
import { afterAll, describe, expect, it } from 'vitest';
import { keySpellings, linesHolding } from './capture-logs.js';
import type { ServeProcess } from './cli-process.js';
import { allOutput, runCli, spawnServe, verdictFrom } from './cli-process.js';
import { addEndpoint, adminExpect, issueKey, stringField, waitUntil } from './webhook-e2e.js';
import type { AdminTarget } from './webhook-e2e.js';
import { createWebhookReceiver } from './webhook-receiver.js';
import type { WebhookReceiver } from './webhook-receiver.js';

/**
 * Buyer links end to end (docs/protocol.md#buyer-links): a real `licence serve` child process on the
 * embedded SQLite store, with LICENCE_PUBLIC_URL, and a real webhook receiver on loopback that
 * verifies with the `standardwebhooks` npm library. The shop asks for a link through the admin API
 * (and the CLI), the buyer opens it and posts the page's form as a browser does (with its Origin);
 * the old key then answers `transfert`, the new one `ok` on the new domain, and the shop hears of it
 * with `initiatedBy: "buyer"`. Nothing the server writes holds a token, a link or a key.
 */

const root = mkdtempSync(join(tmpdir(), 'licence-buyer-'));
const ADMIN_TOKEN = randomBytes(32).toString('base64url');
const UA = 'MonTheme/2.1';
/** A bound on a hang for a loaded 2-core CI machine, not a speed target. */
const TEST_TIMEOUT_MS = 120_000;
const KEY = /[0-9A-Z]{5}(?:-[0-9A-Z]{5}){4}/;
/** The audit's forged token (docs/protocol.md#buyer-links): a well-formed payload, 64 bytes of signature. */
const FORGED = `${Buffer.from('9999999999.1.ABCD').toString('base64url')}.${Buffer.alloc(64, 7).toString('base64url')}`;

let started: ServeProcess | undefined;
let receiver: WebhookReceiver | undefined;

afterAll(async () => {
  if (started !== undefined && started.child.exitCode === null) started.child.kill('SIGKILL');
  await receiver?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A verdict's `{ok, motif}` for `cle` on `page`. */
async function verdict(url: string, cle: string, page: string): Promise<{ ok: unknown; motif: unknown }> {
  const { donnees } = await verdictFrom(url, { cle, url: page }, UA);
  return { ok: donnees.ok, motif: donnees.motif };
}

/** The path of a link (what the browser asks the server for). */
const pathOf = (link: string): string => new URL(link).pathname;

/** The page's form, posted as a browser does: url-encoded, with the page's own Origin (null: none). */
function postForm(
  base: string,
  link: string,
  form: Record<string, string>,
  origin: string | null = base,
): Promise<HttpAnswer> {
  return send(base, {
    method: 'POST',
    path: `${pathOf(link)}/transfer`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'accept-language': 'fr-FR,fr;q=0.9',
      ...(origin === null ? {} : { origin }),
    },
    body: new URLSearchParams(form).toString(),
  });
}

async function linkFor(target: AdminTarget, cle: string): Promise<string> {
  const link = await adminExpect(target, 201, 'POST', `/admin/keys/${cle}/buyer-link`, { ttl: 3600 });
  expect(link.expires).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/));
  return stringField(link, 'url');
}

describe('buyer links through a real `licence serve` (docs/protocol.md#buyer-links)', () => {
  it(
    'moves a site from the buyer page: a new key shown once, the old one refused, the shop told; a 4th transfer is a 429; no token in any output',
    async () => {
      receiver = createWebhookReceiver(await freePort());
      await receiver.listen();
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const cwd = mkdtempSync(join(root, 'serve-'));
      const env = {
        LICENCE_ADMIN_TOKEN: ADMIN_TOKEN,
        LICENCE_WEBHOOK_ALLOW_PRIVATE: '1',
        LICENCE_PUBLIC_URL: `${base}/`,
      };
      started = await spawnServe({ cwd, env: { ...env, PORT: String(port) } });
      const target: AdminTarget = { url: started.url, adminToken: ADMIN_TOKEN };
      await adminExpect(target, 201, 'POST', '/admin/authors', { id: 'atelier', name: 'Atelier Dupont' });
      await adminExpect(target, 201, 'POST', '/admin/products', { id: 'theme', author: 'atelier', name: 'Thème' });
      const endpoint = await addEndpoint(target, receiver.url, ['key.transferred']);
      receiver.trust(endpoint.secret);
      const { cle } = await issueKey(target, 'theme');
      expect(await verdict(base, cle, 'https://www.boutique.fr/')).toEqual({ ok: true, motif: '' });

      // The shop asks for a link; the buyer opens it.
      const link = await linkFor(target, cle);
      expect(link.startsWith(`${base}/buyer/`)).toBe(true);
      const page = await send(base, { method: 'GET', path: pathOf(link), headers: { 'accept-language': 'fr' } });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).toContain('<html lang="fr"');
      expect(page.text).toContain('boutique.fr');
      const css = await send(base, { method: 'GET', path: '/buyer/buyer.css' });
      expect(css.status).toBe(200);

      // A form from another site is refused, and changes nothing.
      expect(
        (await postForm(base, link, { from: 'boutique.fr', to: 'nouvelle.fr' }, 'https://evil.example')).status,
      ).toBe(403);
      expect((await postForm(base, link, { from: 'boutique.fr', to: 'nouvelle.fr' }, null)).status).toBe(403);

      // The buyer moves the site: the new key, shown once on the page.
      const done = await postForm(base, link, { from: 'boutique.fr', to: 'https://nouvelle.fr/' });
      expect(done.status).toBe(200);
      const fresh = KEY.exec(done.text)?.[0] ?? '';
      expect(fresh === '' || fresh === cle).toBe(false);
      expect(await verdict(base, cle, 'https://nouvelle.fr/')).toEqual({ ok: false, motif: 'transfert' });
      expect(await verdict(base, fresh, 'https://nouvelle.fr/')).toEqual({ ok: true, motif: '' });
      // The link died with its key.
      expect((await send(base, { method: 'GET', path: pathOf(link) })).status).toBe(410);

      // The shop hears of it, with the new key, from the buyer.
      await waitUntil('key.transferred at the receiver', () => (receiver?.received.length ?? 0) >= 1);
      expect(receiver.rejected).toEqual([]);
      const [event] = receiver.received;
      expect(event?.type).toBe('key.transferred');
      expect(event?.data.initiatedBy).toBe('buyer');
      expect(event?.data.cle === fresh).toBe(true);

      // Two more transfers (JSON, a new link each), then the 4th in 30 days is refused.
      const keys = [cle, fresh];
      let current = fresh;
      let domain = 'nouvelle.fr';
      for (const next of ['deux.fr', 'trois.fr']) {
        const moved = await send(base, {
          method: 'POST',
          path: `${pathOf(await linkFor(target, current))}/transfer`,
          headers: { 'content-type': 'application/json', origin: base },
          body: JSON.stringify({ from: domain, to: next }),
        });
        expect(moved.status).toBe(200);
        current = stringField(JSON.parse(moved.text) as Record<string, unknown>, 'cle');
        keys.push(current);
        domain = next;
      }
      const lastLink = await linkFor(target, current);
      const limited = await postForm(base, lastLink, { from: domain, to: 'quatre.fr' });
      expect(limited.status).toBe(429);
      expect(limited.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.text).toContain('Atelier Dupont');

      // The CLI makes the same links, on LICENCE_PUBLIC_URL, with the same signing key.
      const cli = await runCli(['key', 'buyer-link', current, '--ttl', '600'], { cwd, env });
      expect(cli.code).toBe(0);
      const cliLink = cli.stdout.trim();
      expect(cliLink.startsWith(`${base}/buyer/`)).toBe(true);
      expect(cli.stderr).toMatch(/^licence: buyer link of key [0-9A-Z]{4}, valid until \S+Z: give it/);
      expect((await send(base, { method: 'GET', path: pathOf(cliLink) })).status).toBe(200);
      const { LICENCE_PUBLIC_URL: _unset, ...withoutUrl } = env;
      const refused = await runCli(['key', 'buyer-link', current], { cwd, env: withoutUrl });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        'licence: key buyer-link: no public URL to build the link on; set LICENCE_PUBLIC_URL (docs/protocol.md#buyer-links) or give --base <url>\n',
      );

      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      // Nothing the server (or the CLI) wrote holds a link, a token or a key.
      const links = [link, lastLink, cliLink];
      const secrets = [...links, ...links.map((each) => pathOf(each).slice('/buyer/'.length)), ADMIN_TOKEN];
      for (const each of links) secrets.push(...pathOf(each).slice('/buyer/'.length).split('.'));
      const written = [...started.logs, ...allOutput.stderr];
      expect(linesHolding(written, [...secrets, ...keys.flatMap(keySpellings)])).toEqual([]);
      expect(started.logs.some((line) => line.includes('"route":"/buyer/:token/transfer"'))).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'limits the buyer pages per address across two workers, before the token, apart from the verdicts: a 429 page with Retry-After',
    async () => {
      const cwd = mkdtempSync(join(root, 'workers-'));
      // TRUST_PROXY=1: each request names its client in X-Forwarded-For (loopback is one address).
      const env = { LICENCE_WORKERS: '2', TRUST_PROXY: '1', LICENCE_DATA_DIR: join(cwd, 'data') };
      const serve = await spawnServe({ cwd, env });
      try {
        const get = (client: string) =>
          send(serve.url, { method: 'GET', path: `/buyer/${FORGED}`, headers: { 'x-forwarded-for': client } });
        // 40 at once, spread over both workers: the primary counts them all (docs/protocol.md#rate-limit: 30).
        const answers = await Promise.all(Array.from({ length: 40 }, () => get('198.51.100.7')));
        const statuses = answers.map((answer) => answer.status);
        expect(statuses.filter((status) => status === 404)).toHaveLength(30);
        expect(statuses.filter((status) => status === 429)).toHaveLength(10);
        const refused = answers.find((answer) => answer.status === 429);
        expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(Number(refused?.headers['retry-after'])).toBeLessThanOrEqual(60);
        expect(refused?.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(refused?.headers['content-security-policy']).toContain("default-src 'none'");
        expect(refused?.text).toContain('<h1>Too many requests</h1>');
        expect((await get('198.51.100.8')).status).toBe(404);
        // The address's verdicts have a budget of their own.
        const asked = await send(serve.url, {
          method: 'POST',
          path: '/api/licence',
          headers: { 'content-type': 'application/json', 'user-agent': UA, 'x-forwarded-for': '198.51.100.7' },
          body: JSON.stringify({ cle: 'ABCDE-ABCDE-ABCDE-ABCDE-ABCDE', url: 'https://boutique.fr/' }),
        });
        expect(asked.status).toBe(200);
      } finally {
        serve.child.kill('SIGTERM');
        expect(await serve.exited).toBe(0);
      }
      expect(linesHolding(serve.logs, [FORGED, ...FORGED.split('.')])).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
