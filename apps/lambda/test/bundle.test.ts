import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isRecord, verifyEnvelope } from '@licence/core';
import { readExternalJson } from '@licence/vectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_DIR, BUNDLE_FILE, bundleLambda, packageOf } from '../scripts/bundle.mjs';
import { Webhook } from 'standardwebhooks';
import { httpApiEvent, PRODUCT_UA, readResult, scheduledEvent } from './events.js';
import { lambdaHarness, TEST_PUBLIC_KEY, TEST_SEED_BASE64 } from './lambda-harness.js';
import { startWebhookReceiver } from './webhook-receiver.js';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';

/**
 * The single-file bundle (dist/lambda/index.mjs, built by the suite's globalSetup with
 * scripts/bundle.mjs, as `pnpm build` builds it) is what AWS runs. Here it is copied alone into an
 * empty folder outside the repository (so nothing can be found in a node_modules) and loaded by
 * plain `node`, which hands it events as the Lambda runtime would, on a real PostgreSQL.
 */

const run = promisify(execFile);
const postgres = await throwawayPostgres('lambda bundle');

/**
 * Loads the bundle, invokes its export EXPORT (template.yaml's `index.handler` or `index.webhooks`)
 * with each event of EVENTS in turn and a context of a minute, prints the results, closes its pool.
 */
const CHILD = `
const run = (await import(process.env.BUNDLE))[process.env.EXPORT];
const deadline = Date.now() + 60000;
const context = { awsRequestId: 'bundle-test', getRemainingTimeInMillis: () => deadline - Date.now() };
const results = [];
for (const event of JSON.parse(process.env.EVENTS)) results.push(await run(event, context));
await run.close();
process.stdout.write('RESULTS ' + JSON.stringify(results) + '\\n');
`;

describe('the Lambda bundle', () => {
  let built: Awaited<ReturnType<typeof bundleLambda>>;
  let dir = '';

  beforeAll(async () => {
    // The same build into a scratch file, for its metafile (what went in, what stays outside).
    dir = mkdtempSync(join(tmpdir(), 'licence-lambda-bundle-'));
    built = await bundleLambda({ outfile: join(dir, 'metafile-build.mjs') });
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("is one file under 1 MB holding pg and the console's files, and neither better-sqlite3, nor Koa, nor pino", () => {
    expect(readdirSync(BUNDLE_DIR)).toEqual(['index.mjs']);
    expect(built.bytes).toBeLessThan(1024 * 1024);
    const has = (name: string) => built.inputs.some((input) => input.includes(`node_modules/${name}/`));
    expect(has('pg')).toBe(true);
    // docs/protocol.md#console: the page and its assets are strings inside the bundle (no file
    // beside it to read, no S3, no CDN).
    expect(built.inputs.map(packageOf)).toContain('@licence/console');
    for (const name of ['better-sqlite3', 'koa', 'pino', '@licence/store-sqlite', 'aws-lambda'])
      expect(has(name)).toBe(false);
    expect(built.inputs.some((input) => input.includes('store-sqlite') || input.includes('koa-server'))).toBe(false);
  });

  it("imports nothing at run time but Node's built-ins (and pg's optional pg-native, never loaded)", () => {
    const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
    expect(built.externals.filter((name) => !builtins.has(name))).toEqual(['pg-native']);
  });

  describe.skipIf(!postgres.available)('loaded by plain node', () => {
    /** The bundle alone in a folder, its export `name` handed `events` in one process with the environment `env`. */
    const invoke = async (events: readonly unknown[], env: Record<string, string>, name = 'handler') => {
      const alone = mkdtempSync(join(dir, 'task-'));
      copyFileSync(BUNDLE_FILE, join(alone, 'index.mjs'));
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', CHILD], {
        cwd: alone,
        env: {
          PATH: process.env.PATH ?? '',
          BUNDLE: join(alone, 'index.mjs'),
          EXPORT: name,
          EVENTS: JSON.stringify(events),
          ...env,
        },
        timeout: 30_000,
      });
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('RESULTS '));
      if (line === undefined) throw new Error(`no results from the bundle: ${stdout}`);
      return { results: JSON.parse(line.slice('RESULTS '.length)) as unknown[], stdout };
    };

    it('answers an HTTP API, a REST and an ALB event with signed verdicts, and a bad config with 500', async () => {
      const body = JSON.stringify({
        cle: 'ABCDE-FGHJK-MNPQR-STVWX-YZ012',
        url: 'https://www.exemple.fr',
        nonce: 'bundle-nonce-0123456789',
      });
      const headers = { 'content-type': 'application/json', 'user-agent': PRODUCT_UA };
      // AWS's sample was sent by Postman, whose default User-Agent docs/protocol.md#user-agent-filter
      // refuses (403): a product sends its own.
      const sample = readExternalJson<Record<string, unknown>>('aws-lambda-events/apigw-request.json');
      const rest = {
        ...sample,
        path: '/api/licence',
        headers: { ...(isRecord(sample.headers) ? sample.headers : {}), 'User-Agent': PRODUCT_UA },
        multiValueHeaders: {
          ...(isRecord(sample.multiValueHeaders) ? sample.multiValueHeaders : {}),
          'User-Agent': [PRODUCT_UA],
        },
        body,
      };
      const alb = {
        ...readExternalJson<Record<string, unknown>>(
          'aws-lambda-events/alb-lambda-target-request-multivalue-headers.json',
        ),
        httpMethod: 'POST',
        path: '/api/licence',
        multiValueHeaders: {
          'content-type': ['application/json'],
          'user-agent': [PRODUCT_UA],
          'x-forwarded-for': ['72.21.198.67'],
        },
        body,
      };
      const events = [httpApiEvent({ method: 'POST', path: '/api/licence', headers, body }), rest, alb];

      const databaseUrl = await postgres.cluster().createDatabase();
      const { results, stdout } = await invoke(events, {
        DATABASE_URL: databaseUrl,
        LICENCE_SIGNING_KEY: TEST_SEED_BASE64,
      });
      expect(results).toHaveLength(3);
      for (const raw of results) {
        const result = readResult(raw);
        expect(result.statusCode).toBe(200);
        expect(
          verifyEnvelope(result.json, [TEST_PUBLIC_KEY], { hote: 'exemple.fr', nonce: 'bundle-nonce-0123456789' }),
        ).toBe(true);
        expect(result.json).toMatchObject({ donnees: { ok: false, motif: 'inconnue' } });
      }
      expect(readResult(results[0]).raw).toHaveProperty('headers');
      expect(readResult(results[1]).raw).toHaveProperty('multiValueHeaders');
      expect(readResult(results[2]).raw).toMatchObject({
        statusDescription: '200 OK',
        multiValueHeaders: { 'Content-Type': ['application/json'] },
      });
      // Its own JSON log lines on stdout: the runtime opened once, three request lines.
      const logs = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(logs.filter((entry) => entry.msg === 'licence service ready')).toHaveLength(1);
      expect(logs.filter((entry) => entry.msg === 'request').map((entry) => entry.status)).toEqual([200, 200, 200]);

      const broken = await invoke(events, { DATABASE_URL: databaseUrl });
      for (const raw of broken.results) {
        expect(readResult(raw).statusCode).toBe(500);
        expect(readResult(raw).headers['content-type']).toBe('application/problem+json');
      }
      expect(broken.stdout).toContain('LICENCE_SIGNING_KEY: required on AWS Lambda');
    });

    it('answers GET /console with the page under its CSP, and the files it loads, from the one file', async () => {
      const page = httpApiEvent({ method: 'GET', path: '/console', headers: { 'accept-language': 'fr-FR,fr;q=0.9' } });
      const files = ['console.js', 'console.css'].map((name) =>
        httpApiEvent({ method: 'GET', path: `/console/${name}` }),
      );
      const { results } = await invoke([page, ...files], {
        DATABASE_URL: await postgres.cluster().createDatabase(),
        LICENCE_SIGNING_KEY: TEST_SEED_BASE64,
        LICENCE_ADMIN_TOKEN: randomBytes(24).toString('base64url'),
      });
      const [html, script, style] = results.map((raw) => readResult(raw));
      expect(html).toMatchObject({ statusCode: 200, raw: { isBase64Encoded: false } });
      expect(html?.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(html?.headers['content-security-policy']).toMatch(/(^|;\s*)default-src 'self'(;|$)/);
      expect(html?.headers['x-frame-options']).toBe('DENY');
      expect(html?.body).toMatch(/<html[^>]*\slang="fr"/);
      // The page's own references are what the bundle serves.
      expect(html?.body).toContain('console/console.js');
      expect(script).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/javascript; charset=utf-8' } });
      expect(script?.body.length).toBeGreaterThan(1000);
      expect(style).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/css; charset=utf-8' } });
    });

    it('its `webhooks` export drains the outbox to a receiver, given only DATABASE_URL and LICENCE_WEBHOOK_ALLOW_PRIVATE', async () => {
      // The API side (the sources' handler, on the same database) stores the endpoint and the event.
      const databaseUrl = await postgres.cluster().createDatabase();
      const receiver = await startWebhookReceiver();
      const api = lambdaHarness({ databaseUrl, env: { LICENCE_WEBHOOK_ALLOW_PRIVATE: '1' } });
      try {
        await api.admin('POST', '/admin/products', { id: 'mon-theme', author: 'atelier', name: 'Mon theme' });
        const endpoint = await api.admin('POST', '/admin/webhooks', {
          url: `${receiver.url}/bundle`,
          events: ['key.issued'],
        });
        const issued = await api.admin('POST', '/admin/keys', { produit: 'mon-theme', kind: 'buyer' });
        const { results, stdout } = await invoke(
          [scheduledEvent('licence-webhooks')],
          { DATABASE_URL: databaseUrl, LICENCE_WEBHOOK_ALLOW_PRIVATE: '1' },
          'webhooks',
        );
        expect(results).toEqual([{ attempts: 1 }]);
        expect(receiver.received).toHaveLength(1);
        const [request] = receiver.received;
        const payload = new Webhook(String(endpoint.secret)).verify(request?.body ?? '', request?.headers ?? {});
        expect(payload).toMatchObject({ type: 'key.issued', data: { hint: issued.hint, produit: 'mon-theme' } });
        expect(stdout).toContain('"msg":"webhook deliverer ready"');
      } finally {
        await api.close();
        await receiver.close();
      }
    });
  });
});
