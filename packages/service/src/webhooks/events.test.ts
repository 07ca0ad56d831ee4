import { normalizeKey } from '@licence/core';
import { describe, expect, it } from 'vitest';
import { authorWithToken, call } from '../../test/authors.js';
import {
  admin,
  adminRequest,
  createHarness,
  issue,
  type TestClock,
  verdict,
  verdictRequest,
} from '../../test/harness.js';
import type { Store } from '../ports/index.js';
import { WEBHOOK_EVENT_TYPES } from './payload.js';
import {
  domainBoundEvent,
  keyIssuedEvent,
  keyReplacedEvent,
  keyRevokedEvent,
  verdictRefusedDedupe,
  verdictRefusedEvent,
} from './events.js';

/** Each call gives the next byte, 16 times: event ids are known in advance. */
function counterRandom() {
  let next = 0;
  return (length: number) => {
    next += 1;
    return new Uint8Array(length).fill(next);
  };
}

// 2026-11-22T10:14:00Z and the second before the next UTC midnight.
const AT = Date.UTC(2026, 10, 22, 10, 14, 0) / 1000;
const LAST_SECOND = Date.UTC(2026, 10, 22, 23, 59, 59) / 1000;
const NEW = '0123G-45678-9ABCD-EFGHJ-KM211';

describe('webhook events for the outbox (docs/protocol.md#webhooks)', () => {
  it('key.issued: a msg_ id, the product, the time, the body of payload.ts, no dedupe', () => {
    const event = keyIssuedEvent(counterRandom(), AT, {
      hint: 'Z211',
      produit: 'son-theme',
      kind: 'trial',
      sites: 2,
      expire: '2026-12-01T00:00:00Z',
    });
    expect(event).toEqual({
      id: expect.stringMatching(
        new RegExp(`^msg_${AT.toString(16)}[0-9a-f]{6}${Buffer.alloc(12, 1).toString('base64url')}$`),
      ),
      type: 'key.issued',
      produit: 'son-theme',
      at: AT,
      body: '{"type":"key.issued","timestamp":"2026-11-22T10:14:00Z","data":{"hint":"Z211","produit":"son-theme","kind":"trial","sites":2,"expire":"2026-12-01T00:00:00Z"}}',
      dedupe: null,
    });
  });

  it('key.regenerated and key.transferred: the old hint, the new key in full, who did it', () => {
    const random = counterRandom();
    const data = { hint: 'Z211', cle: NEW, produit: 'son-theme', initiatedBy: 'author' } as const;
    const regenerated = keyReplacedEvent(random, 'key.regenerated', AT, data);
    const transferred = keyReplacedEvent(random, 'key.transferred', AT, data);
    expect(regenerated.type).toBe('key.regenerated');
    expect(JSON.parse(regenerated.body)).toEqual({
      type: 'key.regenerated',
      timestamp: '2026-11-22T10:14:00Z',
      data: { hint: 'Z211', cle: NEW, produit: 'son-theme', initiatedBy: 'author' },
    });
    expect(JSON.parse(transferred.body)).toMatchObject({ type: 'key.transferred', data: { cle: NEW } });
    // Every event has its own id: the `webhook-id` a receiver dedupes on.
    expect(transferred.id).not.toBe(regenerated.id);
  });

  it('key.revoked and domain.bound', () => {
    const random = counterRandom();
    const revoked = keyRevokedEvent(random, AT, {
      hint: 'Z211',
      produit: 'p',
      quand: '2026-11-22T10:14:00Z',
      reason: null,
    });
    expect(JSON.parse(revoked.body)).toEqual({
      type: 'key.revoked',
      timestamp: '2026-11-22T10:14:00Z',
      data: { hint: 'Z211', produit: 'p', quand: '2026-11-22T10:14:00Z', reason: null },
    });
    const bound = domainBoundEvent(random, AT, { hint: 'Z211', produit: 'p', domain: 'exemple.fr' });
    expect(bound).toMatchObject({ type: 'domain.bound', produit: 'p', at: AT, dedupe: null });
    expect(JSON.parse(bound.body).data).toEqual({ hint: 'Z211', produit: 'p', domain: 'exemple.fr' });
  });

  it('verdict.refused: deduped per key id, host and UTC day', () => {
    const random = counterRandom();
    const data = { hint: 'Z211', produit: 'p', motif: 'autre_domaine', hote: 'www.autre.fr' } as const;
    const event = verdictRefusedEvent(random, AT, 'key-7', data);
    expect(event.dedupe).toBe(`verdict.refused:key-7:www.autre.fr:${Math.floor(AT / 86_400)}`);
    expect(JSON.parse(event.body).data).toEqual(data);
    // The same UTC day until its last second; the next second is the next day.
    expect(verdictRefusedEvent(random, LAST_SECOND, 'key-7', data).dedupe).toBe(event.dedupe);
    expect(verdictRefusedDedupe('key-7', 'www.autre.fr', LAST_SECOND + 1)).not.toBe(event.dedupe);
    expect(verdictRefusedDedupe('key-8', 'www.autre.fr', AT)).not.toBe(event.dedupe);
    expect(verdictRefusedDedupe('key-7', 'autre.fr', AT)).not.toBe(event.dedupe);
  });

  it('refuses what the payload builders refuse: a full key as the hint, a refusal other than autre_domaine', () => {
    const random = counterRandom();
    expect(() =>
      keyRevokedEvent(random, AT, { hint: NEW, produit: 'p', quand: '2026-11-22T10:14:00Z', reason: null }),
    ).toThrow("hint: expected the key's four-character hint, got a string of 29 characters");
    expect(() =>
      // @ts-expect-error: verdict.refused is for autre_domaine only
      verdictRefusedEvent(random, AT, 'k', { hint: 'Z211', produit: 'p', motif: 'revoquee', hote: 'a.fr' }),
    ).toThrow('motif: verdict.refused is sent for autre_domaine only');
  });
});

/**
 * Every event stored so far, oldest first, read as the deliverer reads them: claimed, then
 * finished as delivered (so the next claim reaches the endpoint's next one).
 */
async function delivered(
  store: Store,
  clock: TestClock,
): Promise<{ type: string; timestamp: string; data: Record<string, unknown> }[]> {
  const now = Math.floor(clock.nowMs / 1000);
  const bodies = [];
  for (let claimed = await store.claimWebhookDeliveries(now, now + 60, 16); claimed.length > 0; ) {
    for (const delivery of claimed) {
      bodies.push(JSON.parse(delivery.body));
      const attempt = { at: now, status: 200, error: null, durationMs: 1 };
      await store.finishWebhookAttempt(delivery.id, attempt, { status: 'delivered' });
    }
    claimed = await store.claimWebhookDeliveries(now, now + 60, 16);
  }
  return bodies;
}

/** A harness with one endpoint of every author, subscribed to every event type. */
async function listening(options: Parameters<typeof createHarness>[0] = {}) {
  const harness = createHarness(options);
  const body = { url: 'https://shop.example/hook', events: [...WEBHOOK_EVENT_TYPES] };
  const made = await admin(harness.service, 'POST', '/admin/webhooks', body, 201);
  const events = () => delivered(harness.store, harness.clock);
  return { ...harness, events, secret: String(made.secret) };
}

const isoNow = (clock: TestClock) => new Date(clock.nowMs).toISOString().replace('.000Z', 'Z');
const hintOf = (cle: string) => normalizeKey(cle).slice(-4);

describe('each key change stores exactly its event, in the same store call (docs/protocol.md#webhooks)', () => {
  it('issue: key.issued with the hint, never the key', async () => {
    const { service, clock, events } = await listening();
    const cle = await issue(service, { kind: 'trial', sites: 2, expire: '2027-01-01T00:00:00Z' });
    const bodies = await events();
    expect(bodies).toEqual([
      {
        type: 'key.issued',
        timestamp: isoNow(clock),
        data: { hint: hintOf(cle), produit: 'mon-theme', kind: 'trial', sites: 2, expire: '2027-01-01T00:00:00Z' },
      },
    ]);
    expect(JSON.stringify(bodies).includes(normalizeKey(cle))).toBe(false);
  });

  it('regenerate (operator) and transfer (author token): the old hint, the new key in full, who did it', async () => {
    const { service, clock, events } = await listening();
    const alice = await authorWithToken(service, 'alice');
    const cle = await issue(service, { author: 'alice', sites: 2 });
    await events();
    const { cle: regenerated } = await admin(service, 'POST', `/admin/keys/${cle}/regenerate`, undefined, 201);
    clock.advance(1000);
    const body = { to: 'exemple.fr' };
    const { cle: moved } = await call(
      service,
      alice.token,
      'POST',
      `/admin/keys/${String(regenerated)}/transfer`,
      body,
      201,
    );
    const [first, second, ...rest] = await events();
    expect(rest).toEqual([]);
    expect(first).toEqual({
      type: 'key.regenerated',
      timestamp: new Date(clock.nowMs - 1000).toISOString().replace('.000Z', 'Z'),
      data: { hint: hintOf(cle), cle: regenerated, produit: 'mon-theme', initiatedBy: 'operator' },
    });
    // The transfer bound exemple.fr to the new key: its event says so; no domain.bound beside it.
    expect(second).toEqual({
      type: 'key.transferred',
      timestamp: isoNow(clock),
      data: { hint: hintOf(String(regenerated)), cle: moved, produit: 'mon-theme', initiatedBy: 'author' },
    });
  });

  it('revoke: key.revoked with the time and the reason given, null without one', async () => {
    const { service, clock, events, logger } = await listening();
    const cle = await issue(service, {});
    const other = await issue(service, {});
    await events();
    await admin(service, 'POST', `/admin/keys/${cle}/revoke`, { reason: '  chargeback 42 ' }, 200);
    await admin(service, 'POST', `/admin/keys/${other}/revoke`, {}, 200);
    const bodies = await events();
    expect(bodies).toEqual([
      {
        type: 'key.revoked',
        timestamp: isoNow(clock),
        data: { hint: hintOf(cle), produit: 'mon-theme', quand: isoNow(clock), reason: 'chargeback 42' },
      },
      {
        type: 'key.revoked',
        timestamp: isoNow(clock),
        data: { hint: hintOf(other), produit: 'mon-theme', quand: isoNow(clock), reason: null },
      },
    ]);
    // docs/protocol.md#privacy: sent to the author's endpoints, never logged.
    expect(JSON.stringify(logger.lines).includes('chargeback')).toBe(false);
  });

  it('a refused change stores no event', async () => {
    const { service, events } = await listening();
    await issue(service, { kind: 'dev' });
    const revoked = await issue(service, {});
    await admin(service, 'POST', `/admin/keys/${revoked}/revoke`, undefined, 200);
    const full = await issue(service, {});
    await verdict(service, { cle: full, url: 'a.fr' }, 'a.fr');
    await events();
    for (const [method, path, body, status] of [
      ['POST', '/admin/keys', { produit: 'mon-theme', kind: 'dev' }, 409],
      ['POST', '/admin/keys', { produit: 'nope', kind: 'buyer' }, 404],
      ['POST', `/admin/keys/${revoked}/revoke`, undefined, 409],
      ['POST', `/admin/keys/${revoked}/regenerate`, undefined, 409],
      ['POST', `/admin/keys/${revoked}/transfer`, undefined, 409],
      ['POST', `/admin/keys/${full}/transfer`, { to: 'b.fr' }, 409],
    ] as const) {
      expect((await service.handle(adminRequest(method, path, body))).status).toBe(status);
    }
    expect(await events()).toEqual([]);
  });

  it('a change the store refuses at write time (a racing revocation) stores no event', async () => {
    const { service, store, clock, events } = await listening();
    const cle = await issue(service, {});
    await events();
    // The key is read alive, then revoked before the write: what a racing request leaves.
    const racing: Store = {
      ...store,
      findKeyByHash: async (hash) => {
        const found = await store.findKeyByHash(hash);
        if (found !== null) await store.revokeKey(found.id, null, Math.floor(clock.nowMs / 1000));
        return found;
      },
    };
    const { service: raced } = createHarness({ store: racing });
    const response = await raced.handle(adminRequest('POST', `/admin/keys/${cle}/regenerate`));
    expect(response.status).toBe(409);
    expect(await events()).toEqual([]);
  });
});

describe('verdict events (docs/protocol.md#webhooks)', () => {
  it('domain.bound on a new binding only: not again for the same domain, nor for a test host', async () => {
    const { service, clock, events } = await listening();
    const cle = await issue(service, { sites: 2 });
    await events();
    await verdict(service, { cle, url: 'shop.exemple.fr' }, 'shop.exemple.fr');
    await verdict(service, { cle, url: 'exemple.fr' }, 'exemple.fr');
    await verdict(service, { cle, url: 'localhost' }, 'localhost');
    expect(await events()).toEqual([
      {
        type: 'domain.bound',
        timestamp: isoNow(clock),
        data: { hint: hintOf(cle), produit: 'mon-theme', domain: 'exemple.fr' },
      },
    ]);
  });

  it('verdict.refused for autre_domaine: once per key, host and UTC day', async () => {
    const { service, clock, events } = await listening();
    const cle = await issue(service, {});
    await verdict(service, { cle, url: 'a.fr' }, 'a.fr');
    await events();
    // 23:00 UTC: twice from b.fr, once from c.fr.
    clock.nowMs = Date.UTC(2026, 10, 22, 23, 0, 0);
    for (const host of ['b.fr', 'b.fr', 'c.fr']) {
      expect(await verdict(service, { cle, url: host }, host)).toMatchObject({ ok: false, motif: 'autre_domaine' });
    }
    const today = await events();
    expect(today).toEqual([
      {
        type: 'verdict.refused',
        timestamp: '2026-11-22T23:00:00Z',
        data: { hint: hintOf(cle), produit: 'mon-theme', motif: 'autre_domaine', hote: 'b.fr' },
      },
      expect.objectContaining({ data: expect.objectContaining({ hote: 'c.fr' }) }),
    ]);
    // An hour later it is the next UTC day: b.fr is news again, once.
    clock.advance(3_600_000);
    await verdict(service, { cle, url: 'b.fr' }, 'b.fr');
    await verdict(service, { cle, url: 'b.fr' }, 'b.fr');
    expect(await events()).toEqual([
      expect.objectContaining({ type: 'verdict.refused', timestamp: '2026-11-23T00:00:00Z' }),
    ]);
  });

  it('no verdict.refused for other refusals, nor for an unknown key', async () => {
    const { service, events } = await listening();
    const cle = await issue(service, {});
    await admin(service, 'POST', `/admin/keys/${cle}/revoke`, undefined, 200);
    await events();
    expect(await verdict(service, { cle, url: 'a.fr' }, 'a.fr')).toMatchObject({ motif: 'revocation' });
    const unknown = 'ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ';
    expect(await verdict(service, { cle: unknown, url: 'a.fr' }, 'a.fr')).toMatchObject({ motif: 'inconnue' });
    expect(await events()).toEqual([]);
  });

  it('a verdict whose refusal cannot be noted is a 503, as when its log line cannot be written', async () => {
    const { service, store } = await listening();
    const cle = await issue(service, {});
    await verdict(service, { cle, url: 'a.fr' }, 'a.fr');
    const failing: Store = { ...store, addWebhookEvent: () => Promise.reject(new Error('disk full')) };
    const { service: broken } = createHarness({ store: failing });
    const response = await broken.handle(verdictRequest({ cle, url: 'b.fr' }));
    expect(response.status).toBe(503);
    // An ok verdict writes no event, and does not notice.
    expect((await broken.handle(verdictRequest({ cle, url: 'a.fr' }))).status).toBe(200);
  });

  it('no secret in any log line, from creating the endpoint to the verdicts', async () => {
    const { service, logger, secret, events } = await listening();
    const cle = await issue(service, {});
    await verdict(service, { cle, url: 'a.fr' }, 'a.fr');
    await verdict(service, { cle, url: 'b.fr' }, 'b.fr');
    await admin(service, 'POST', `/admin/keys/${cle}/regenerate`, undefined, 201);
    expect((await events()).map((event) => event.type)).toEqual([
      'key.issued',
      'domain.bound',
      'verdict.refused',
      'key.regenerated',
    ]);
    const text = logger.text();
    expect(text.includes(secret.slice('whsec_'.length))).toBe(false);
    expect(text.includes(normalizeKey(cle))).toBe(false);
  });
});
