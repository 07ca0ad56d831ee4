import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeBase64, encodeBase64, publicKeyOf, verifyEnvelope } from '@licence/core';
import type { SignedEnvelope } from '@licence/core';
import { configErrorLine } from '@licence/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { REFUSAL_SLOTS } from '../src/connection-guard.js';
import { readOpenFileLimit } from '../src/connection-limits.js';
import { DEFAULT_TIMEOUTS } from '../src/http-server.js';
import type { ServerConfig } from '../src/config.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { captureLogs, keySpellings, linesHolding } from './capture-logs.js';

/**
 * The whole server as it runs in production (startServer: embedded default, SQLite file, Koa,
 * the real service) on 127.0.0.1:0, driven over HTTP with fetch.
 */

const ADMIN_TOKEN = randomBytes(24).toString('base64url');
const UA = 'MonTheme/2.1 (+https://exemple.fr)';
const root = mkdtempSync(join(tmpdir(), 'licence-server-'));
const dataDir = join(root, 'data');
const { logger, lines } = captureLogs('debug');
const printed: string[] = [];
const usedKeys: string[] = [];

function config(): ServerConfig {
  const result = loadConfig({ PORT: '0', LICENCE_DATA_DIR: dataDir, LICENCE_ADMIN_TOKEN: ADMIN_TOKEN }, root);
  if (!result.ok) throw new Error(result.errors.map(configErrorLine).join('\n'));
  return result.value;
}

function start(): Promise<RunningServer> {
  return startServer({ config: config(), logger, print: (text) => printed.push(text), cli: 'licence' });
}

async function admin(
  server: RunningServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function verdict(server: RunningServer, body: Record<string, unknown>, userAgent = UA) {
  const response = await fetch(`${server.url}/api/licence`, {
    method: 'POST',
    headers: { 'User-Agent': userAgent, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { response, text: await response.text() };
}

async function issueKey(server: RunningServer, body: Record<string, unknown>): Promise<string> {
  const issued = await admin(server, 'POST', '/admin/keys', body);
  expect(issued.status).toBe(201);
  const cle = issued.json.cle;
  if (typeof cle !== 'string') throw new Error('no cle');
  usedKeys.push(cle);
  return cle;
}

let server: RunningServer;

beforeAll(async () => {
  server = await start();
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a real server on 127.0.0.1:0 with a SQLite file', () => {
  it('creates the embedded default and prints the public key of its key file', () => {
    const seed = decodeBase64(readFileSync(join(dataDir, 'signing-key'), 'utf8').trim(), 'seed', 32);
    const expected = encodeBase64(publicKeyOf(seed));
    expect(server.publicKey).toBe(expected);
    expect(printed.join('')).toContain(`public key (base64, give it to your products): ${expected}\n`);
    expect(printed.join('')).toContain(`listening on ${server.url}\n`);
    expect(printed.join('')).toContain(`console: ${server.url}/console (`);
    expect(printed.join('')).toContain(
      `LICENCE_DATA_DIR=${dataDir} licence key issue --produit my-product --kind buyer`,
    );
  });

  it('issues a key through the admin API and answers a signed verdict that verifies with core', async () => {
    expect(
      (await admin(server, 'POST', '/admin/products', { id: 'mon-theme', author: 'moi', name: 'Mon thème' })).status,
    ).toBe(201);
    const cle = await issueKey(server, { produit: 'mon-theme', kind: 'buyer' });
    const nonce = randomBytes(18).toString('base64url');
    const { response, text } = await verdict(server, {
      cle,
      url: 'https://www.boutique.exemple.fr/panier',
      produit: 'mon-theme',
      nonce,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const envelope = JSON.parse(text) as SignedEnvelope;
    expect(
      verifyEnvelope(envelope, [server.publicKey], { hote: 'boutique.exemple.fr', produit: 'mon-theme', nonce }),
    ).toBe(true);
    expect(envelope.donnees).toMatchObject({ ok: true, motif: '', domaine: 'exemple.fr', essai: false });
    // Another key's public key does not verify it.
    expect(
      verifyEnvelope(envelope, [encodeBase64(publicKeyOf(new Uint8Array(32)))], { hote: 'boutique.exemple.fr' }),
    ).toBe(false);
  });

  it('runs with the timeouts and connection caps of docs/protocol.md#limits', () => {
    expect({
      headers: server.server.headersTimeout,
      request: server.server.requestTimeout,
      keepAlive: server.server.keepAliveTimeout,
      // A server property Node sets from the option of the same name (not in @types/node).
      checkInterval: Reflect.get(server.server, 'connectionsCheckingInterval'),
    }).toEqual({ headers: 10_000, request: 15_000, keepAlive: 5_000, checkInterval: 1_000 });
    expect(DEFAULT_TIMEOUTS).toEqual({
      headersMs: 10_000,
      requestMs: 15_000,
      keepAliveMs: 5_000,
      checkIntervalMs: 1_000,
    });
    // docs/protocol.md#limits: 256 descriptors kept, and one per webhook attempt in flight (32).
    const total = Math.min(10_000, readOpenFileLimit() - 256 - 32);
    expect(server.limits).toEqual({ maxConnections: total, maxConnectionsPerIp: 100 });
    expect(server.server.maxConnections).toBe(total + REFUSAL_SLOTS);
  });

  it('answers GET /healthz', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok' });
  });

  it('filters a library User-Agent with a 403 problem', async () => {
    const { response, text } = await verdict(server, { cle: 'X', url: 'exemple.fr' }, 'curl/8.5.0');
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(JSON.parse(text)).toMatchObject({ status: 403 });
  });

  it('answers unparsable HTTP with a problem+json 400, not an empty reply', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const url = new URL(server.url);
      const socket = connect(Number(url.port), url.hostname, () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += String(chunk)));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(reply).toContain('Content-Type: application/problem+json');
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400 });
  });

  it("answers headers past Node's limit with a problem+json 431", async () => {
    const response = await fetch(`${server.url}/api/licence`, {
      method: 'POST',
      headers: { 'X-Big': 'b'.repeat(20_000) },
    });
    expect(response.status).toBe(431);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 431 });
  });

  it('ran the purge once at start and logged it in one line, with its counts', () => {
    const purges = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => typeof entry.action === 'string' && entry.action.startsWith('purge'));
    expect(purges).toEqual([expect.objectContaining({ action: 'purge', erased: 0, webhookEvents: 0 })]);
  });

  it('keeps everything across a restart: same public key, same verdict, same binding', async () => {
    const cle = await issueKey(server, { produit: 'mon-theme', kind: 'buyer', sites: 1 });
    const first = await verdict(server, { cle, url: 'premier.fr', produit: 'mon-theme' });
    expect(JSON.parse(first.text)).toMatchObject({ donnees: { ok: true, domaine: 'premier.fr' } });
    const publicKey = server.publicKey;

    await server.close();
    server = await start();

    expect(server.publicKey).toBe(publicKey);
    expect(printed.join('')).toContain(`signing key: ${join(dataDir, 'signing-key')}\n`);
    const again = await verdict(server, { cle, url: 'www.premier.fr', produit: 'mon-theme' });
    const envelope = JSON.parse(again.text) as SignedEnvelope;
    expect(verifyEnvelope(envelope, [publicKey], { hote: 'premier.fr', produit: 'mon-theme' })).toBe(true);
    expect(envelope.donnees).toMatchObject({ ok: true, domaine: 'premier.fr' });
    // The binding survived: a second domain finds the key full.
    const other = JSON.parse((await verdict(server, { cle, url: 'second.fr' })).text) as SignedEnvelope;
    expect(other.donnees).toMatchObject({ ok: false, motif: 'autre_domaine', domaine: 'premier.fr' });
    const shown = await admin(server, 'GET', `/admin/keys/${cle}`);
    expect(shown.json.domains).toEqual([expect.objectContaining({ domain: 'premier.fr' })]);
  });

  it('a shutdown does not wait forever for a client that never finishes its body', async () => {
    const result = loadConfig({ PORT: '0', LICENCE_DATA_DIR: join(root, 'stuck') }, root);
    if (!result.ok) throw new Error(result.errors.map(configErrorLine).join('\n'));
    const stuck = await startServer({ config: result.value, logger, print: () => undefined, shutdownTimeoutMs: 50 });
    const url = new URL(stuck.url);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    // The server cuts this connection on purpose: a reset is the expected end here.
    const socketErrors: string[] = [];
    socket.on('error', (error) => socketErrors.push(error.message));
    const received = () => lines.filter((line) => line.includes('"msg":"request received"')).length;
    const before = received();
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST /api/licence HTTP/1.1\r\nHost: x\r\nUser-Agent: ${UA}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"cle"`,
    );
    // Wait until the server reads it (its debug line), then stop: close() must still resolve.
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (received() > before) resolve();
        else setTimeout(check, 5);
      };
      check();
    });
    await stuck.close();
    await ended;
    expect(lines.some((line) => line.includes('shutdown: requests still in flight, closing their connections'))).toBe(
      true,
    );
  });

  it('never logged a key or the admin token (docs/protocol.md#privacy)', () => {
    expect(usedKeys.length).toBeGreaterThan(0);
    const secrets = [...usedKeys.flatMap(keySpellings), ADMIN_TOKEN];
    expect(lines.length).toBeGreaterThan(5);
    expect(linesHolding(lines, secrets)).toEqual([]);
    expect(linesHolding(printed, secrets)).toEqual([]);
  });
});

/** docs/protocol.md#console: what a browser must be told about the page and its assets. */
function expectSecurityHeaders(response: Response): void {
  expect(response.headers.get('content-security-policy')).toMatch(/(^|;\s*)default-src 'self'(;|$)/);
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
}

describe('the console on the real server (docs/protocol.md#console)', () => {
  it('GET /console is the page with the security headers, in French for a French browser, in English otherwise', async () => {
    const french = await fetch(`${server.url}/console`, { headers: { 'Accept-Language': 'fr-FR,fr;q=0.9' } });
    expect(french.status).toBe(200);
    expect(french.headers.get('content-type')).toMatch(/^text\/html/);
    expectSecurityHeaders(french);
    const html = await french.text();
    expect(html).toMatch(/<html[^>]*\slang="fr"/);
    expect(Number(french.headers.get('content-length'))).toBe(Buffer.byteLength(html));
    const english = await fetch(`${server.url}/console`, { headers: { 'Accept-Language': 'en-US,en;q=0.9' } });
    expect(await english.text()).toMatch(/<html[^>]*\slang="en"/);
  });

  it('GET /console/console.js is JavaScript', async () => {
    const script = await fetch(`${server.url}/console/console.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await script.text()).length).toBeGreaterThan(1000);
  });

  it('HEAD /console: the headers of GET and no body, and no made-up length of 0', async () => {
    const get = await fetch(`${server.url}/console`);
    const length = String((await get.arrayBuffer()).byteLength);
    const head = await fetch(`${server.url}/console`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expectSecurityHeaders(head);
    expect(await head.text()).toBe('');
    // The page's true length, or none (the service answers HEAD without the content): never 0.
    expect([null, length]).toContain(head.headers.get('content-length'));
    // A HEAD the service answers with the content (/healthz) keeps its length; Node sends no body.
    const health = await fetch(`${server.url}/healthz`, { method: 'HEAD' });
    expect(await health.text()).toBe('');
    expect(Number(health.headers.get('content-length'))).toBe('{"status":"ok","store":"up"}'.length);
  });

  it('the query reaches the service: ?days=7 answers seven days of activity, ?days=0 is a 400 problem', async () => {
    const week = await admin(server, 'GET', '/admin/products/mon-theme/activity?days=7');
    expect(week.status).toBe(200);
    expect(week.json).toMatchObject({ product: 'mon-theme' });
    expect(week.json.days).toHaveLength(7);
    expect((await admin(server, 'GET', '/admin/products/mon-theme/activity')).json.days).toHaveLength(30);
    const zero = await fetch(`${server.url}/admin/products/mon-theme/activity?days=0`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(zero.status).toBe(400);
    expect(zero.headers.get('content-type')).toBe('application/problem+json');
    expect(await zero.json()).toMatchObject({ status: 400 });
  });

  it('without LICENCE_ADMIN_TOKEN there is no console, as there is no admin API', async () => {
    const result = loadConfig({ PORT: '0', LICENCE_DATA_DIR: join(root, 'no-admin') }, root);
    if (!result.ok) throw new Error(result.errors.map(configErrorLine).join('\n'));
    const closed = await startServer({ config: result.value, logger, print: () => undefined });
    try {
      const page = await fetch(`${closed.url}/console`);
      expect(page.status).toBe(404);
      expect(await page.text()).not.toContain('<html');
    } finally {
      await closed.close();
    }
  });

  it('no log line holds a path or a query, only the route (docs/protocol.md#privacy)', async () => {
    const marker = `m${randomBytes(9).toString('hex')}`;
    const cle = usedKeys[0] ?? '';
    const paths = [
      `/admin/keys/${cle}?${marker}=1`,
      `/admin/products/mon-theme/activity?days=3&${marker}=1`,
      `/console?${marker}=1`,
      `/console/${marker}.js`,
      `/${marker}?q=${marker}`,
    ];
    for (const path of paths) {
      const response = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
      await response.arrayBuffer();
    }
    const requests = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((e) => e.msg === 'request');
    expect(requests.length).toBeGreaterThan(paths.length);
    expect(linesHolding(lines, [marker, '?days=', 'mon-theme/activity'])).toEqual([]);
    expect(linesHolding(lines, keySpellings(cle))).toEqual([]);
  });
});
