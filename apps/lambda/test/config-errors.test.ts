import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@licence/pg-cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLambdaHandler } from '../src/create-lambda-handler.js';
import { createJsonLogger } from '../src/json-logger.js';
import type { Environment } from '@licence/service';
import { httpApiEvent, PRODUCT_UA, readResult } from './events.js';
import { TEST_PUBLIC_KEY, TEST_SEED_BASE64 } from './lambda-harness.js';
import { throwawayPostgres } from '@licence/pg-cluster/vitest';

/**
 * A missing or bad configuration answers 500 problem+json (503 for a database that does
 * not answer), with a log line naming the variable and never a secret's value, and NEVER a signed
 * refusal (docs/protocol.md#errors). The next invocation tries again, so fixing the environment is
 * enough.
 */

const postgres = await throwawayPostgres('lambda configuration errors');

const ADMIN_TOKEN = 'an-admin-token-of-some-length-0123456789';
const verification = () =>
  httpApiEvent({
    method: 'POST',
    path: '/api/licence',
    headers: { 'content-type': 'application/json', 'user-agent': PRODUCT_UA },
    body: JSON.stringify({ cle: 'ABCDE-FGHJK-MNPQR-STVWX-YZ012', url: 'https://exemple.fr' }),
  });

/** A handler on `env` with its log lines kept. */
function handlerOn(env: Environment) {
  const lines: string[] = [];
  const handler = createLambdaHandler({
    env,
    logger: createJsonLogger({ level: 'info', write: (line) => lines.push(line) }),
  });
  return { handler, lines };
}

function errorLines(lines: readonly string[]): Record<string, unknown>[] {
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.level === 50);
}

let databaseUrl = '';
let dir = '';

describe.skipIf(!postgres.available)('a missing or bad configuration', () => {
  beforeAll(async () => {
    databaseUrl = await postgres.cluster().createDatabase();
    dir = mkdtempSync(join(tmpdir(), 'licence-lambda-config-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const good = (): Environment => ({
    DATABASE_URL: databaseUrl,
    LICENCE_SIGNING_KEY: TEST_SEED_BASE64,
    LICENCE_ADMIN_TOKEN: ADMIN_TOKEN,
  });

  /** [what, environment change, the variable the log must name, a secret that must not appear] */
  const cases: readonly [string, (env: Environment) => Environment, string, string | undefined][] = [
    ['DATABASE_URL missing', ({ DATABASE_URL: _dropped, ...env }) => env, 'DATABASE_URL', undefined],
    [
      'DATABASE_URL not postgres',
      (env) => ({ ...env, DATABASE_URL: 'mysql://root:hunter2-secret@db/licence' }),
      'DATABASE_URL',
      'hunter2-secret',
    ],
    ['no signing key at all', ({ LICENCE_SIGNING_KEY: _dropped, ...env }) => env, 'LICENCE_SIGNING_KEY', undefined],
    [
      'a signing key of 16 bytes',
      (env) => ({ ...env, LICENCE_SIGNING_KEY: 'c2hvcnQtc2VlZC1zZWNyZXQ=' }),
      'LICENCE_SIGNING_KEY',
      'c2hvcnQtc2VlZC1zZWNyZXQ=',
    ],
    [
      'both signing key variables',
      (env) => ({ ...env, LICENCE_SIGNING_KEY_FILE: '/etc/key' }),
      'LICENCE_SIGNING_KEY',
      TEST_SEED_BASE64,
    ],
    [
      'a signing key file that is not there',
      ({ LICENCE_SIGNING_KEY: _dropped, ...env }) => ({ ...env, LICENCE_SIGNING_KEY_FILE: '/nonexistent/signing-key' }),
      'LICENCE_SIGNING_KEY_FILE',
      undefined,
    ],
    [
      'a short admin token',
      (env) => ({ ...env, LICENCE_ADMIN_TOKEN: 'short-secret' }),
      'LICENCE_ADMIN_TOKEN',
      'short-secret',
    ],
    ['TRUST_PROXY=true', (env) => ({ ...env, TRUST_PROXY: 'true' }), 'TRUST_PROXY', undefined],
    ['a bad LOG_LEVEL', (env) => ({ ...env, LOG_LEVEL: 'loud' }), 'LOG_LEVEL', undefined],
  ];

  for (const [what, change, variable, secret] of cases) {
    it(`${what}: 500 problem+json, one log line naming ${variable}${secret === undefined ? '' : ', not its value'}`, async () => {
      const { handler, lines } = handlerOn(change(good()));
      try {
        const result = readResult(await handler(verification()));
        expect(result.statusCode).toBe(500);
        expect(result.headers['content-type']).toBe('application/problem+json');
        expect(result.json).toEqual({
          type: 'https://licence.dev/problems/internal-error',
          title: 'Internal error',
          status: 500,
          detail: 'an internal error occurred',
        });
        expect(result.body).not.toContain('donnees');
        expect(result.headers['access-control-allow-origin']).toBe('*');
        const errors = errorLines(lines);
        expect(errors.map((entry) => entry.variable)).toEqual([variable]);
        expect(String(errors[0]?.msg)).toMatch(new RegExp(`^${variable}: `));
        if (secret !== undefined) expect(lines.filter((line) => line.includes(secret))).toEqual([]);
        // Every invocation answers so (and says so again), until the environment is fixed.
        expect(readResult(await handler(verification())).statusCode).toBe(500);
        expect(errorLines(lines)).toHaveLength(2);
      } finally {
        await handler.close();
      }
    });
  }

  it('several bad variables: one line each', async () => {
    const { handler, lines } = handlerOn({ DATABASE_URL: 'nope', TRUST_PROXY: '99', LOG_LEVEL: 'loud' });
    expect(readResult(await handler(verification())).statusCode).toBe(500);
    expect(errorLines(lines).map((entry) => entry.variable)).toEqual([
      'DATABASE_URL',
      'LICENCE_SIGNING_KEY',
      'TRUST_PROXY',
      'LOG_LEVEL',
    ]);
    await handler.close();
  });

  it('a database that does not answer: 503 problem+json naming DATABASE_URL, never its password', async () => {
    const port = await freePort();
    const { handler, lines } = handlerOn({
      ...good(),
      DATABASE_URL: `postgres://licence:pw-secret-123@127.0.0.1:${port}/licence`,
    });
    const result = readResult(await handler(verification()));
    expect(result.statusCode).toBe(503);
    expect(result.json).toMatchObject({ type: 'https://licence.dev/problems/service-unavailable', status: 503 });
    expect(result.body).not.toContain('donnees');
    const errors = errorLines(lines);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.variable).toBe('DATABASE_URL');
    expect(String(errors[0]?.msg)).toContain(`postgres://127.0.0.1:${port}/licence`);
    expect(lines.filter((line) => line.includes('pw-secret-123'))).toEqual([]);
    await handler.close();
  });

  it('the next invocation tries again: fixing the environment is enough, no new container needed', async () => {
    const env: Record<string, string | undefined> = { ...good(), LICENCE_SIGNING_KEY: undefined };
    const { handler, lines } = handlerOn(env);
    try {
      expect(readResult(await handler(verification())).statusCode).toBe(500);
      env.LICENCE_SIGNING_KEY = TEST_SEED_BASE64;
      const fixed = readResult(await handler(verification()));
      expect(fixed.statusCode).toBe(200);
      expect(fixed.json).toMatchObject({ donnees: { ok: false, motif: 'inconnue', hote: 'exemple.fr' } });
      expect(errorLines(lines)).toHaveLength(1);
    } finally {
      await handler.close();
    }
  });

  it('LICENCE_SIGNING_KEY_FILE: read once, relative to the task folder; a bad file names the variable', async () => {
    writeFileSync(join(dir, 'signing-key'), `${TEST_SEED_BASE64}\n`, { mode: 0o600 });
    writeFileSync(join(dir, 'bad-key'), 'bm90IGEga2V5\n', { mode: 0o600 });
    const { LICENCE_SIGNING_KEY: _dropped, ...base } = good();
    const lines: string[] = [];
    const logger = createJsonLogger({ level: 'info', write: (line) => lines.push(line) });
    const handler = createLambdaHandler({
      env: { ...base, LICENCE_SIGNING_KEY_FILE: 'signing-key' },
      cwd: dir,
      logger,
    });
    try {
      const result = readResult(await handler(verification()));
      expect(result.statusCode).toBe(200);
      expect(lines.some((line) => line.includes(TEST_PUBLIC_KEY))).toBe(true);
    } finally {
      await handler.close();
    }
    const bad = createLambdaHandler({ env: { ...base, LICENCE_SIGNING_KEY_FILE: 'bad-key' }, cwd: dir, logger });
    expect(readResult(await bad(verification())).statusCode).toBe(500);
    const last = errorLines(lines).at(-1);
    expect(last?.variable).toBe('LICENCE_SIGNING_KEY_FILE');
    expect(String(last?.msg)).toContain(`expected 32 bytes`);
    expect(String(last?.msg)).not.toContain('bm90IGEga2V5');
    await bad.close();
  });

  it('the daily purge with a bad configuration fails the invocation (EventBridge retries) and names the variable', async () => {
    const { handler, lines } = handlerOn({ ...good(), DATABASE_URL: '' });
    await expect(handler({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} })).rejects.toThrow(
      /^purge failed: DATABASE_URL: required/,
    );
    expect(errorLines(lines).map((entry) => entry.variable)).toEqual(['DATABASE_URL']);
  });

  it('an event of no integration we know is a 400 problem, not a crash', async () => {
    const { handler, lines } = handlerOn(good());
    for (const event of [{}, null, 'text', { requestContext: {} }, { httpMethod: 'GET' }]) {
      const result = readResult(await handler(event));
      expect(result.statusCode).toBe(400);
      expect(result.json).toMatchObject({ type: 'https://licence.dev/problems/invalid-request', status: 400 });
    }
    expect(lines.filter((line) => line.includes('not an HTTP event'))).toHaveLength(5);
    await handler.close();
  });
});
