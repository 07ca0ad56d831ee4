import { throwawayPostgres } from '@licence/pg-cluster/vitest';
import { isRecord } from '@licence/http-vector-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpApiEvent, PRODUCT_UA, readResult } from './events.js';
import { lambdaHarness } from './lambda-harness.js';
import type { LambdaHarness } from './lambda-harness.js';

/**
 * Buyer links through the real handler on PostgreSQL (docs/protocol.md#buyer-links): the link made
 * by the admin API on LICENCE_PUBLIC_URL (an API stage's URL), the page as API Gateway hands it
 * over, and the page's form posted as an HTTP API sends a body it does not know as text (base64).
 * Without LICENCE_PUBLIC_URL, the link is built on the request's host, over https. No log line holds
 * the token.
 */

const postgres = await throwawayPostgres('lambda buyer links');
const PUBLIC_URL = 'https://licences.exemple.fr/prod';
const ORIGIN = 'https://licences.exemple.fr';
const KEY = /[0-9A-Z]{5}(?:-[0-9A-Z]{5}){4}/;

describe.skipIf(!postgres.available)('buyer links through the handler', () => {
  let harness: LambdaHarness;

  beforeAll(async () => {
    harness = lambdaHarness({
      databaseUrl: await postgres.cluster().createDatabase(),
      env: { LICENCE_PUBLIC_URL: `${PUBLIC_URL}/` },
    });
    await harness.admin('POST', '/admin/products', { id: 'theme', author: 'atelier', name: 'Thème' });
  });

  afterAll(async () => {
    await harness.close();
  });

  /** A key bound to boutique.fr, and the path of its buyer link as the stage strips it. */
  async function linkedKey(): Promise<{ readonly cle: string; readonly url: string; readonly path: string }> {
    const issued = await harness.admin('POST', '/admin/keys', { produit: 'theme', kind: 'buyer' });
    const cle = String(issued.cle);
    const verdict = await harness.handler(
      httpApiEvent({
        method: 'POST',
        path: '/api/licence',
        headers: { 'content-type': 'application/json', 'user-agent': PRODUCT_UA },
        body: JSON.stringify({ cle, url: 'https://boutique.fr/' }),
      }),
    );
    expect(readResult(verdict).statusCode).toBe(200);
    const link = await harness.admin('POST', `/admin/keys/${cle}/buyer-link`, {});
    const url = String(link.url);
    expect(url.startsWith(`${PUBLIC_URL}/buyer/`)).toBe(true);
    return { cle, url, path: url.slice(PUBLIC_URL.length) };
  }

  it('serves the page, and a base64 form with the page origin moves the site; the token is in no log line', async () => {
    const { path, url } = await linkedKey();
    const page = readResult(
      await harness.handler(
        httpApiEvent({ method: 'GET', path, headers: { host: 'licences.exemple.fr', 'accept-language': 'fr' } }),
      ),
    );
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<html lang="fr"');
    const form = new URLSearchParams({ from: 'boutique.fr', to: 'nouvelle.fr' }).toString();
    const post = (origin: string) =>
      harness.handler(
        httpApiEvent({
          method: 'POST',
          path: `${path}/transfer`,
          headers: { host: 'licences.exemple.fr', 'content-type': 'application/x-www-form-urlencoded', origin },
          body: form,
          base64: true,
        }),
      );
    expect(readResult(await post('https://evil.example')).statusCode).toBe(403);
    const done = readResult(await post(ORIGIN));
    expect(done.statusCode).toBe(200);
    expect(KEY.test(done.body)).toBe(true);
    const token = url.split('/buyer/')[1] ?? '';
    const held = harness.lines.filter(
      (line) => line.includes(token) || token.split('.').some((part) => line.includes(part)),
    );
    expect(held).toEqual([]);
    const routes = harness.lines
      .map((line) => JSON.parse(line) as unknown)
      .filter((entry) => isRecord(entry) && entry.msg === 'request')
      .map((entry) => (isRecord(entry) ? entry.route : undefined));
    expect(routes).toContain('/buyer/:token');
    expect(routes).toContain('/buyer/:token/transfer');
  });

  it("limits each address's buyer pages in PostgreSQL's shared limiter, before the token, apart from its verdicts", async () => {
    // The audit's forged token (docs/protocol.md#buyer-links): well formed, 64 bytes of signature.
    const forged = `${Buffer.from('9999999999.1.ABCD').toString('base64url')}.${Buffer.alloc(64, 7).toString('base64url')}`;
    const get = (sourceIp: string) =>
      harness.handler(
        httpApiEvent({
          method: 'GET',
          path: `/buyer/${forged}`,
          headers: { host: 'licences.exemple.fr', 'accept-language': 'fr' },
          sourceIp,
        }),
      );
    // The limit of docs/protocol.md#rate-limit (30 in any 60 s), in its own budget.
    for (let i = 0; i < 30; i += 1) expect(readResult(await get('198.51.100.77')).statusCode).toBe(404);
    const refused = readResult(await get('198.51.100.77'));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(refused.body).toContain('<h1>Trop de demandes</h1>');
    expect(readResult(await get('198.51.100.78')).statusCode).toBe(404);
    const verdict = await harness.handler(
      httpApiEvent({
        method: 'POST',
        path: '/api/licence',
        headers: { 'content-type': 'application/json', 'user-agent': PRODUCT_UA },
        body: JSON.stringify({ cle: 'ABCDE-ABCDE-ABCDE-ABCDE-ABCDE', url: 'https://boutique.fr/' }),
        sourceIp: '198.51.100.77',
      }),
    );
    expect(readResult(verdict).statusCode).toBe(200);
  });

  it('builds a link on the request over https when LICENCE_PUBLIC_URL is unset', async () => {
    const plain = lambdaHarness({ databaseUrl: harness.env.DATABASE_URL ?? '' });
    try {
      const issued = await plain.admin('POST', '/admin/keys', { produit: 'theme', kind: 'buyer' });
      const answer = readResult(
        await plain.handler(
          httpApiEvent({
            method: 'POST',
            path: `/admin/keys/${String(issued.cle)}/buyer-link`,
            headers: {
              authorization: `Bearer ${plain.adminToken}`,
              host: 'abc123.execute-api.eu-west-3.amazonaws.com',
            },
          }),
        ),
      );
      expect(answer.statusCode).toBe(201);
      expect(isRecord(answer.json) && String(answer.json.url)).toMatch(
        /^https:\/\/abc123\.execute-api\.eu-west-3\.amazonaws\.com\/buyer\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/,
      );
    } finally {
      await plain.close();
    }
  });
});
