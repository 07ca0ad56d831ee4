import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@licence/pg-cluster';
import { afterAll, describe, expect, it } from 'vitest';
import { keySpellings, linesHolding } from './capture-logs.js';
import { allOutput, runCli, spawnServe } from './cli-process.js';
import type { CliResult } from './cli-process.js';
import { parseJson } from './serve-processes.js';
import { WEBHOOK_SECRET, stringField, waitUntil } from './webhook-e2e.js';
import { createWebhookReceiver } from './webhook-receiver.js';
import type { WebhookReceiver } from './webhook-receiver.js';

/**
 * `licence webhook ...` (docs/protocol.md#webhooks) as the operator, on the data folder of a
 * running `licence serve`: the CLI writes endpoints and (through `key ...`) events into the store,
 * the server's deliverer sends them to a real receiver that verifies each with the
 * `standardwebhooks` library. Secrets and keys the CLI prints are compared as booleans, never
 * printed by a failing assertion.
 */

const root = mkdtempSync(join(tmpdir(), 'licence-webhook-cli-'));
const secrets: string[] = [];
const keys: string[] = [];
let shop: WebhookReceiver | undefined;

afterAll(async () => {
  await shop?.close();
  rmSync(root, { recursive: true, force: true });
});

/** The one stderr line of an admin command that printed a secret. */
const SHOWN_ONCE =
  'licence: the secret is shown only this once; give it to the shop, which verifies every delivery with it (docs/protocol.md#webhooks)\n';

function secretOf(result: CliResult): string {
  const secret = stringField(parseJson(result.stdout), 'secret');
  expect(WEBHOOK_SECRET.test(secret)).toBe(true);
  secrets.push(secret);
  return secret;
}

describe('licence webhook: endpoints of the store of a running server (docs/protocol.md#webhooks)', () => {
  it('adds, lists, rotates, shows deliveries, retries and removes; the server delivers what the CLI caused', async () => {
    const cwd = mkdtempSync(join(root, 'serve-'));
    const allow = { LICENCE_WEBHOOK_ALLOW_PRIVATE: '1' };
    const serve = await spawnServe({ cwd, env: allow });
    const cli = (args: readonly string[], env: Record<string, string> = allow) => runCli(args, { cwd, env });
    try {
      shop = createWebhookReceiver(await freePort());
      await shop.listen();
      const receiver = shop;
      expect((await cli(['author', 'add', 'alice', '--name', 'Alice'])).code).toBe(0);
      expect((await cli(['product', 'add', 'theme', '--author', 'alice', '--name', 'Thème'])).code).toBe(0);

      // add --json: the view and the secret, this once (JSON alone: no note on stderr).
      const added = await cli([
        'webhook',
        'add',
        receiver.url,
        '--events',
        'key.issued,key.revoked',
        '--author',
        'alice',
        '--json',
      ]);
      expect(added.code).toBe(0);
      expect(added.stderr).toBe('');
      const oldSecret = secretOf(added);
      const { secret: _shown, ...view } = parseJson(added.stdout);
      expect(view).toEqual({
        id: expect.stringMatching(/^wh_/),
        url: receiver.url,
        events: ['key.issued', 'key.revoked'],
        author: 'alice',
        created: expect.any(String),
      });
      const id = stringField(view, 'id');
      receiver.trust(oldSecret);

      // add without --json: `field: value` lines, the secret among them.
      const human = await cli(['webhook', 'add', `${receiver.url}?other`, '--events', 'domain.bound']);
      expect(human.code).toBe(0);
      expect(human.stderr).toBe(SHOWN_ONCE);
      // Tested, not matched: a failing toMatch would print the secret.
      const HUMAN_ADD =
        /^id: wh_\S+\nurl: http:\/\/127\.0\.0\.1:\d+\/hooks\?other\nevents:\n {2}- domain\.bound\nauthor: -\ncreated: \S+\nsecret: \S+\n$/;
      expect(HUMAN_ADD.test(human.stdout)).toBe(true);
      const otherSecret = /^secret: (\S+)$/m.exec(human.stdout)?.[1] ?? '';
      expect(WEBHOOK_SECRET.test(otherSecret)).toBe(true);
      secrets.push(otherSecret);
      const otherId = /^id: (\S+)$/m.exec(human.stdout)?.[1] ?? '';

      // The CLI issues a key; the server's deliverer sends the event it wrote.
      const issued = await cli(['key', 'issue', '--produit', 'theme', '--kind', 'buyer', '--json']);
      expect(issued.code).toBe(0);
      const cle = stringField(parseJson(issued.stdout), 'cle');
      keys.push(cle);
      await waitUntil('key.issued at the receiver', () => receiver.received.length >= 1);
      const [first] = receiver.received;
      expect(first?.type).toBe('key.issued');

      const listed = await cli(['webhook', 'list', '--json']);
      // Oldest first, then by id: both were made within a second, so in either order.
      const { webhooks } = parseJson(listed.stdout);
      expect(webhooks).toHaveLength(2);
      expect(webhooks).toEqual(
        expect.arrayContaining([
          view,
          expect.objectContaining({ id: otherId, author: null, events: ['domain.bound'] }),
        ]),
      );
      expect(listed.stdout).not.toContain('whsec_');
      expect((await cli(['webhook', 'list'])).stdout).toContain(`  - id: ${id}\n    url: ${receiver.url}\n`);

      const deliveryId = await deliveredOnce(cli, id, first?.id ?? '');
      // A manual retry: pending again, due now, and sent again with the same webhook-id.
      const retried = await cli(['webhook', 'retry', id, deliveryId, '--json']);
      expect(retried.code).toBe(0);
      expect(parseJson(retried.stdout)).toMatchObject({ id: deliveryId, event: first?.id, status: 'pending' });
      await waitUntil('the retried delivery', () => receiver.received.length >= 2);
      expect(receiver.received[1]?.id).toBe(first?.id);

      // Rotation: the new secret is shown once, and both sign for 24 h (two signatures, each verifies).
      const rotated = await cli(['webhook', 'rotate', id]);
      expect(rotated.code).toBe(0);
      expect(rotated.stderr).toBe(SHOWN_ONCE);
      expect(new RegExp(`^id: ${id}\\nsecret: \\S+\\npreviousUntil: \\S+\\n$`).test(rotated.stdout)).toBe(true);
      const newSecret = /^secret: (\S+)$/m.exec(rotated.stdout)?.[1] ?? '';
      expect(WEBHOOK_SECRET.test(newSecret) && newSecret !== oldSecret).toBe(true);
      secrets.push(newSecret);
      receiver.trust(newSecret);
      expect((await cli(['key', 'revoke', cle])).code).toBe(0);
      await waitUntil('key.revoked at the receiver', () => receiver.received.length >= 3);
      const revoked = receiver.received[2];
      expect(revoked?.type).toBe('key.revoked');
      expect(revoked?.signatures).toBe(2);
      expect(revoked?.verifiedBy).toEqual([0, 1]);
      expect(receiver.rejected).toEqual([]);

      await refusals(cli, id);
      expect(parseJson((await cli(['webhook', 'remove', id, '--json'])).stdout)).toEqual({ id, removed: true });
      expect(await cli(['webhook', 'remove', otherId])).toEqual({
        code: 0,
        stdout: `id: ${otherId}\nremoved: true\n`,
        stderr: '',
      });
      expect(await cli(['webhook', 'list'])).toMatchObject({ code: 0, stdout: 'webhooks: (none)\n' });
    } finally {
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
    }
  }, 120_000);

  it('no log line and no stderr line holds a webhook secret or a key', () => {
    expect(secrets.length).toBe(3);
    expect(keys.length).toBe(1);
    const hidden = [...secrets, ...keys.flatMap(keySpellings)];
    expect(linesHolding(allOutput.stdout, hidden).length).toBe(0);
    expect(linesHolding(allOutput.stderr, hidden).length).toBe(0);
  });
});

type Cli = (args: readonly string[], env?: Record<string, string>) => Promise<CliResult>;

/** `webhook deliveries`: the one delivery, delivered on its first attempt; its id. */
async function deliveredOnce(cli: Cli, id: string, event: string): Promise<string> {
  let deliveries: unknown;
  await waitUntil('the delivery marked delivered', async () => {
    const shown = parseJson((await cli(['webhook', 'deliveries', id, '--json'])).stdout);
    deliveries = shown.deliveries;
    return Array.isArray(deliveries) && deliveries.length === 1 && JSON.stringify(deliveries).includes('"delivered"');
  });
  expect(deliveries).toEqual([
    {
      id: expect.stringMatching(/^dlv_/),
      event,
      type: 'key.issued',
      created: expect.any(String),
      status: 'delivered',
      nextAttempt: null,
      attempts: [{ at: expect.any(String), status: 200, error: null, durationMs: expect.any(Number) }],
    },
  ]);
  const human = await cli(['webhook', 'deliveries', id]);
  expect(human.stdout).toMatch(
    new RegExp(`^webhook: ${id}\\ndeliveries:\\n {2}- id: dlv_\\S+\\n {4}event: ${event}\\n`),
  );
  return Array.isArray(deliveries) ? stringField(deliveries[0] as Record<string, unknown>, 'id') : '';
}

/**
 * Each refusal is one stderr line: exit 1 for what the service refuses, 2 for a usage mistake. The
 * commands are independent: they run at once.
 */
async function refusals(cli: Cli, id: string): Promise<void> {
  const oneLine = (command: string, rest = '[^\\n]+') =>
    expect.stringMatching(new RegExp(`^licence: ${command}: ${rest}\\n$`));
  const refused = (stderr: unknown, code = 1) => ({ code, stdout: '', stderr });
  const cases: [readonly string[], Record<string, string> | undefined, unknown][] = [
    // Without LICENCE_WEBHOOK_ALLOW_PRIVATE, the CLI refuses a loopback receiver as the API does.
    [
      ['webhook', 'add', 'http://127.0.0.1:9/hooks', '--events', 'key.issued'],
      {},
      refused(oneLine('webhook add', 'url: 127\\.0\\.0\\.1 is not a public address: loopback[^\\n]*')),
    ],
    [
      ['webhook', 'add', 'https://shop.example/', '--events', 'key.issued', '--author', 'nobody'],
      undefined,
      refused('licence: webhook add: no author nobody\n'),
    ],
    [['webhook', 'remove', 'wh_nope'], undefined, refused(oneLine('webhook remove'))],
    [['webhook', 'rotate', 'wh_nope'], undefined, refused(oneLine('webhook rotate'))],
    [['webhook', 'deliveries', 'wh_nope'], undefined, refused(oneLine('webhook deliveries'))],
    [['webhook', 'retry', id, 'dlv_nope'], undefined, refused(oneLine('webhook retry'))],
    [
      ['webhook', 'add', 'https://shop.example/', '--events', 'key.sold'],
      undefined,
      refused(
        oneLine('webhook add', '--events must be a comma-separated list of key\\.issued, .*, got "key\\.sold"'),
        2,
      ),
    ],
  ];
  const results = await Promise.all(cases.map(([args, env]) => cli(args, env)));
  expect(results).toEqual(cases.map(([, , expected]) => expected));
}
