import { freePort } from '@licence/pg-cluster';
import { describe, expect, it } from 'vitest';
import { createWebhooksHandler } from './create-webhooks-handler.js';
import { createJsonLogger } from './json-logger.js';
import type { Environment } from '@licence/service';

/**
 * The scheduled webhooks function when it cannot run: a bad configuration or a database that does
 * not answer REJECTS the invocation (so Lambda counts an error and an alarm can see it), after one
 * log line per fault naming its variable, never a secret. Its deliveries, on a real PostgreSQL and
 * a real receiver, are in test/webhooks-schedule.test.ts.
 */

const SCHEDULED = { source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} };

function handlerOn(env: Environment) {
  const lines: string[] = [];
  const handler = createWebhooksHandler({
    env,
    logger: createJsonLogger({ level: 'debug', write: (line) => lines.push(line) }),
  });
  const errors = () =>
    lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.level === 50);
  return { handler, lines, errors };
}

describe('createWebhooksHandler: when it cannot run', () => {
  it('no DATABASE_URL: rejects, one line naming it; the signing key and admin token are not asked for', async () => {
    const { handler, errors } = handlerOn({});
    await expect(handler(SCHEDULED, { awsRequestId: 'cron-1' })).rejects.toThrow(/^webhooks failed: DATABASE_URL: /);
    expect(errors()).toEqual([
      expect.objectContaining({
        requestId: 'cron-1',
        status: 500,
        variable: 'DATABASE_URL',
        msg: 'DATABASE_URL: required on AWS Lambda (the outbox to drain is in PostgreSQL); set a postgres:// URL',
      }),
    ]);
    await handler.close();
  });

  it('LICENCE_WEBHOOK_ALLOW_PRIVATE=yes: rejects, naming the variable and the one accepted spelling', async () => {
    const { handler, errors } = handlerOn({
      DATABASE_URL: 'postgres://licence@127.0.0.1:1/licence',
      LICENCE_WEBHOOK_ALLOW_PRIVATE: 'yes',
    });
    await expect(handler(SCHEDULED)).rejects.toThrow('LICENCE_WEBHOOK_ALLOW_PRIVATE');
    expect(errors().map((entry) => entry.msg)).toEqual([
      'LICENCE_WEBHOOK_ALLOW_PRIVATE: expected 1 (on) or 0 (off), got "yes"',
    ]);
    await handler.close();
  });

  it('a database that does not answer: rejects naming DATABASE_URL, never its password; the next run tries again', async () => {
    const port = await freePort();
    const { handler, lines, errors } = handlerOn({
      DATABASE_URL: `postgres://licence:pw-secret-456@127.0.0.1:${port}/licence`,
    });
    await expect(handler(SCHEDULED)).rejects.toThrow(`postgres://127.0.0.1:${port}/licence`);
    await expect(handler(SCHEDULED)).rejects.toThrow('webhooks failed');
    expect(errors().map((entry) => [entry.variable, entry.status])).toEqual([
      ['DATABASE_URL', 503],
      ['DATABASE_URL', 503],
    ]);
    expect(lines.filter((line) => line.includes('pw-secret-456'))).toEqual([]);
    await handler.close();
  });
});
