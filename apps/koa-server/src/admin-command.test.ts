import { randomBytes } from 'node:crypto';
import { createKeyAdmin, isAdminError } from '@licence/service';
import { createMemoryStore } from '@licence/store-memory';
import { describe, expect, it } from 'vitest';
import { captureLogs } from '../test/capture-logs.js';
import { runAdminAction } from './admin-command.js';
import { parseCliArgs } from './cli-args.js';

/** The CLI's admin commands on the service's real key administration (an in-memory store). */
function admin(options: { readonly webhookAllowPrivate?: boolean } = {}) {
  const { logger } = captureLogs();
  return createKeyAdmin({
    store: createMemoryStore(),
    clock: { now: Date.now },
    random: (length) => new Uint8Array(randomBytes(length)),
    logger,
    ...options,
  });
}

/** `whsec_` and the padded base64 of 32 bytes (docs/protocol.md#webhooks). */
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

async function run(keyAdmin: ReturnType<typeof admin>, argv: string[]): Promise<Record<string, unknown>> {
  const command = parseCliArgs(argv);
  if (command.kind !== 'admin') throw new Error(`not an admin command: ${JSON.stringify(command)}`);
  return (await runAdminAction(keyAdmin, command.action)) as Record<string, unknown>;
}

describe('runAdminAction', () => {
  it('runs each command as the admin API operation it stands for', async () => {
    const keyAdmin = admin();
    expect(await run(keyAdmin, ['product', 'add', 'theme', '--author', 'me', '--name', 'Thème'])).toEqual({
      id: 'theme',
      author: 'me',
      name: 'Thème',
      staging: [],
    });
    const issued = await run(keyAdmin, ['key', 'issue', '--produit', 'theme', '--kind', 'buyer', '--sites', '2']);
    expect(issued).toMatchObject({ produit: 'theme', kind: 'buyer', sites: 2, expire: null });
    const cle = String(issued.cle);
    expect(await run(keyAdmin, ['key', 'show', cle])).toMatchObject({ status: 'active', domains: [] });
    const transferred = await run(keyAdmin, ['key', 'transfer', cle, '--to', 'exemple.fr']);
    const moved = String(transferred.cle);
    expect(await run(keyAdmin, ['key', 'show', moved])).toMatchObject({
      domains: [expect.objectContaining({ domain: 'exemple.fr' })],
    });
    const regenerated = String((await run(keyAdmin, ['key', 'regenerate', moved])).cle);
    expect(await run(keyAdmin, ['key', 'revoke', regenerated, '--reason', 'fraud'])).toMatchObject({
      status: 'revocation',
    });
    expect(await run(keyAdmin, ['key', 'show', regenerated])).toMatchObject({ status: 'revocation', reason: 'fraud' });
    expect(await run(keyAdmin, ['installations', 'theme'])).toMatchObject({ produit: 'theme', count: 0 });
    expect(await run(keyAdmin, ['purge'])).toEqual({ erased: 0 });
  });

  it("sets a product's staging patterns: product add --staging, then product staging (docs/protocol.md#staging-hosts)", async () => {
    const keyAdmin = admin();
    const argv = ['product', 'add', 'theme', '--author', 'me', '--name', 'T', '--staging', '*.Recette.fr'];
    expect(await run(keyAdmin, argv)).toMatchObject({ staging: ['*.recette.fr'] });
    expect(await run(keyAdmin, ['product', 'staging', 'theme', 'preview-*.a.fr', '*.recette.fr'])).toEqual({
      id: 'theme',
      author: 'me',
      name: 'T',
      staging: ['preview-*.a.fr', '*.recette.fr'],
    });
    expect(await run(keyAdmin, ['product', 'staging', 'theme'])).toMatchObject({ staging: [] });
    const error = await run(keyAdmin, ['product', 'staging', 'theme', 'a.*.fr']).catch((caught: unknown) => caught);
    expect(isAdminError(error) && error.message).toMatch(/^staging: ./);
    const missing = await run(keyAdmin, ['product', 'staging', 'nothing', '*.a.fr']).catch((caught: unknown) => caught);
    expect(isAdminError(missing) && missing.message).toBe('no product nothing');
  });

  it('runs the author commands as the operator (docs/protocol.md#authors)', async () => {
    const keyAdmin = admin();
    expect(await run(keyAdmin, ['author', 'add', 'alice', '--name', 'Alice'])).toEqual({
      id: 'alice',
      name: 'Alice',
      created: expect.any(String),
    });
    const made = await run(keyAdmin, ['author', 'token', 'alice', '--label', 'laptop']);
    expect(made).toEqual({ id: expect.any(String), token: expect.stringMatching(/^lat_[A-Za-z0-9_-]{43}$/) });
    expect(await run(keyAdmin, ['author', 'tokens', 'alice'])).toEqual({
      tokens: [{ id: made.id, label: 'laptop', created: expect.any(String), lastUsed: null }],
    });
    expect(await run(keyAdmin, ['author', 'revoke-token', 'alice', String(made.id)])).toEqual({
      author: 'alice',
      id: made.id,
      revoked: true,
    });
    expect(await run(keyAdmin, ['author', 'tokens', 'alice'])).toEqual({ tokens: [] });
    const again: unknown = await run(keyAdmin, ['author', 'revoke-token', 'alice', String(made.id)]).catch(
      (e: unknown) => e,
    );
    expect(isAdminError(again) && again.errorClass).toBe('not-found');
  });

  it('runs the webhook commands as the operator (docs/protocol.md#webhooks)', async () => {
    const keyAdmin = admin();
    await run(keyAdmin, ['author', 'add', 'alice', '--name', 'Alice']);
    await run(keyAdmin, ['product', 'add', 'theme', '--author', 'alice', '--name', 'Thème']);
    const url = 'https://shop.example/hooks';
    const { secret, ...view } = await run(keyAdmin, [
      'webhook',
      'add',
      url,
      '--events',
      'key.issued,verdict.refused',
      '--author',
      'alice',
    ]);
    // A secret is compared as a boolean: a failing assertion would print it.
    expect(WEBHOOK_SECRET.test(String(secret))).toBe(true);
    expect(view).toEqual({
      id: expect.stringMatching(/^wh_/),
      url,
      events: ['key.issued', 'verdict.refused'],
      author: 'alice',
      created: expect.any(String),
    });
    const id = String(view.id);
    expect(await run(keyAdmin, ['webhook', 'list'])).toEqual({ webhooks: [view] });

    const rotated = await run(keyAdmin, ['webhook', 'rotate', id]);
    expect(WEBHOOK_SECRET.test(String(rotated.secret)) && rotated.secret !== secret).toBe(true);
    expect(rotated).toMatchObject({ id, previousUntil: expect.any(String) });

    await run(keyAdmin, ['key', 'issue', '--produit', 'theme', '--kind', 'buyer']);
    const { deliveries } = await run(keyAdmin, ['webhook', 'deliveries', id]);
    expect(deliveries).toEqual([expect.objectContaining({ type: 'key.issued', status: 'pending', attempts: [] })]);
    const deliveryId = String((deliveries as { id: string }[])[0]?.id);
    expect(await run(keyAdmin, ['webhook', 'retry', id, deliveryId])).toMatchObject({
      id: deliveryId,
      status: 'pending',
    });
    expect(await run(keyAdmin, ['webhook', 'remove', id])).toEqual({ id, removed: true });
    expect(await run(keyAdmin, ['webhook', 'list'])).toEqual({ webhooks: [] });
    const again: unknown = await run(keyAdmin, ['webhook', 'remove', id]).catch((e: unknown) => e);
    expect(isAdminError(again) && again.errorClass).toBe('not-found');
  });

  it('refuses a loopback or http endpoint unless LICENCE_WEBHOOK_ALLOW_PRIVATE is on', async () => {
    const refusal = (keyAdmin: ReturnType<typeof admin>, url: string) =>
      run(keyAdmin, ['webhook', 'add', url, '--events', 'key.issued']).then(
        () => 'added',
        (error: unknown) => isAdminError(error) && `${error.errorClass}: ${error.message}`,
      );
    const strict = admin();
    expect(await refusal(strict, 'http://127.0.0.1:8080/hooks')).toMatch(
      /^invalid: url: 127\.0\.0\.1 is not a public address: loopback/,
    );
    expect(await refusal(strict, 'https://localhost/hooks')).toBe(
      'invalid: url: localhost is not a public address: loopback (RFC 6761) (non-public addresses only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)',
    );
    const local = admin({ webhookAllowPrivate: true });
    expect(await refusal(local, 'http://127.0.0.1:8080/hooks')).toBe('added');
  });

  it('lets the service refuse: an AdminError with its class and message, no HTTP status', async () => {
    const keyAdmin = admin();
    const error: unknown = await run(keyAdmin, ['key', 'issue', '--produit', 'nothing', '--kind', 'buyer']).catch(
      (e: unknown) => e,
    );
    expect(isAdminError(error) && error.errorClass).toBe('not-found');
    expect(isAdminError(error) && error.message).toBe('no product nothing');
    expect(error).not.toHaveProperty('status');
  });

  it('hands typed values to the service, which applies its rules to them', async () => {
    const keyAdmin = admin();
    await run(keyAdmin, ['product', 'add', 'theme', '--author', 'me', '--name', 'Thème']);
    const issue = (...options: string[]) => run(keyAdmin, ['key', 'issue', '--produit', 'theme', ...options]);
    const refusal = (...options: string[]) =>
      issue(...options).then(
        () => 'issued',
        (error: unknown) => isAdminError(error) && error.message,
      );
    expect(await issue('--kind', 'trial', '--expire', '2099-01-01T02:00:00+02:00')).toMatchObject({
      kind: 'trial',
      sites: 1,
      expire: '2099-01-01T00:00:00Z',
    });
    expect(await refusal('--kind', 'trial', '--expire', '2020-01-01T00:00:00Z')).toBe('expire: must be in the future');
    expect(await refusal('--kind', 'buyer', '--sites', '0')).toBe('sites: expected an integer from 1 to 1000');
  });
});
