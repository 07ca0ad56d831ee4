import { beforeEach, describe, expect, it } from 'vitest';
import { webhookDeliveryId } from '@licence/service';
import { T0 } from './contract-context.js';
import type { ContractContext } from './contract-context.js';
import { attemptContract, claimContract, purgeContract, rotationContract } from './contract-webhook-deliveries.js';
import { endpoint, event, kit, listed, newKey, setUp } from './contract-webhook-kit.js';
import type { Kit } from './contract-webhook-kit.js';

/**
 * The webhooks' storage (ports.ts `addWebhookEndpoint` ... `purgeWebhookEvents`, and the `events`
 * of the key writes; docs/protocol.md#webhooks): endpoints and secrets, the outbox and its fan-out,
 * the deliverer's claims and attempts, the delivery log and the purge. Every test starts with the
 * authors alice and bob, alice's product `theme` and bob's product `other`.
 */

/** ports.ts `addWebhookEndpoint`, `listWebhookEndpoints`, `getWebhookEndpoint`, `deleteWebhookEndpoint`. */
function endpointContract(k: Kit): void {
  describe('webhook endpoints (docs/protocol.md#webhooks)', () => {
    it('adds an endpoint under its own id and reads it back without its secret', async () => {
      const added = endpoint('wh_a', 'alice', ['key.issued', 'key.revoked']);
      expect(await k.store().addWebhookEndpoint(added)).toEqual({ result: 'created', id: 'wh_a' });
      expect(await k.store().getWebhookEndpoint('wh_a')).toEqual(listed(added));
      expect(await k.store().getWebhookEndpoint('wh_missing')).toBeNull();
    });

    it("answers 'no-author' for an unknown author and stores nothing; an every-author endpoint needs none", async () => {
      expect(await k.store().addWebhookEndpoint(endpoint('wh_x', 'nobody'))).toEqual({ result: 'no-author' });
      expect(await k.store().getWebhookEndpoint('wh_x')).toBeNull();
      expect(await k.store().addWebhookEndpoint(endpoint('wh_all', null))).toEqual({ result: 'created', id: 'wh_all' });
      expect((await k.store().getWebhookEndpoint('wh_all'))?.author).toBeNull();
    });

    it("answers 'too-many' past the author's quota (docs/protocol.md#endpoints), even for adds made at once", async () => {
      // Eight adds at once for a quota of 3: on a shared database they race; exactly 3 may win.
      const adds = Array.from({ length: 8 }, (_, i) => k.store().addWebhookEndpoint(endpoint(`wh_r${i}`, 'alice'), 3));
      const results = (await Promise.all(adds)).map((added) => added.result);
      expect(results.filter((result) => result === 'created')).toHaveLength(3);
      expect(results.filter((result) => result === 'too-many')).toHaveLength(5);
      expect(await k.store().listWebhookEndpoints('alice')).toHaveLength(3);
      // Another author's quota is its own; every-author endpoints are not counted; no quota, no refusal.
      expect(await k.store().addWebhookEndpoint(endpoint('wh_bob', 'bob'), 3)).toEqual({
        result: 'created',
        id: 'wh_bob',
      });
      expect(await k.store().addWebhookEndpoint(endpoint('wh_all', null), 0)).toEqual({
        result: 'created',
        id: 'wh_all',
      });
      expect(await k.store().addWebhookEndpoint(endpoint('wh_more', 'alice'))).toEqual({
        result: 'created',
        id: 'wh_more',
      });
      expect(await k.store().addWebhookEndpoint(endpoint('wh_x', 'alice'), 4)).toEqual({ result: 'too-many' });
      // An unknown author is 'no-author' whatever the quota; a deleted endpoint frees its place.
      expect(await k.store().addWebhookEndpoint(endpoint('wh_y', 'nobody'), 0)).toEqual({ result: 'no-author' });
      expect(await k.store().deleteWebhookEndpoint('wh_more')).toBe(true);
      expect(await k.store().addWebhookEndpoint(endpoint('wh_z', 'alice'), 4)).toEqual({
        result: 'created',
        id: 'wh_z',
      });
      expect(await k.store().getWebhookEndpoint('wh_x')).toBeNull();
    });

    it("lists oldest first then by id: every endpoint for null, else only that author's", async () => {
      const late = endpoint('wh_a', 'alice', ['key.issued'], T0 + 20);
      const tieB = endpoint('wh_c', 'alice', ['key.issued'], T0);
      const tieA = endpoint('wh_b', null, ['key.issued'], T0);
      const bobs = endpoint('wh_0', 'bob', ['key.issued'], T0 + 5);
      for (const added of [late, tieB, tieA, bobs]) await k.store().addWebhookEndpoint(added);
      expect(await k.store().listWebhookEndpoints(null)).toEqual([tieA, tieB, bobs, late].map(listed));
      expect(await k.store().listWebhookEndpoints('alice')).toEqual([tieB, late].map(listed));
      expect(await k.store().listWebhookEndpoints('nobody')).toEqual([]);
    });

    it('deletes an endpoint with its deliveries (others keep theirs); false when there is none', async () => {
      await k.store().addWebhookEndpoint(endpoint('wh_a'));
      await k.store().addWebhookEndpoint(endpoint('wh_b'));
      await k.store().addWebhookEvent(event('msg_1'));
      const gone = webhookDeliveryId('msg_1', 'wh_a');
      expect(await k.store().deleteWebhookEndpoint('wh_a')).toBe(true);
      expect(await k.store().getWebhookEndpoint('wh_a')).toBeNull();
      expect(await k.deliveryIds('wh_a')).toEqual([]);
      expect(await k.store().retryWebhookDelivery('wh_a', gone, T0)).toBeNull();
      expect(await k.claim(T0)).toEqual([webhookDeliveryId('msg_1', 'wh_b')]);
      expect(await k.store().deleteWebhookEndpoint('wh_a')).toBe(false);
    });
  });
}

/** ports.ts `insertKey`, `replaceKey`, `revokeKey`, `bindDomain`: `events` on success only. */
function outboxContract(k: Kit): void {
  describe('events of key changes: the outbox (docs/protocol.md#webhooks)', () => {
    beforeEach(async () => {
      await k.store().addWebhookEndpoint(endpoint('wh_a'));
    });

    it("insertKey stores its events on 'created', each fanned out at once into a pending delivery due at its time", async () => {
      await k.created(newKey(), [event('msg_1', 'key.issued', 'theme', T0 + 7)]);
      expect(await k.store().listWebhookDeliveries('wh_a', 10)).toEqual([
        {
          id: webhookDeliveryId('msg_1', 'wh_a'),
          endpointId: 'wh_a',
          eventId: 'msg_1',
          type: 'key.issued',
          createdAt: T0 + 7,
          status: 'pending',
          nextAttemptAt: T0 + 7,
          attempts: [],
        },
      ]);
    });

    it("insertKey stores no event on 'no-product' nor 'dev-exists'", async () => {
      await k.created(newKey({ kind: 'dev', sites: 0 }));
      const dev = newKey({ kind: 'dev', sites: 0 });
      expect(await k.store().insertKey(dev, [], [event('msg_1')])).toEqual({ result: 'dev-exists' });
      const orphan = newKey({ produit: 'nothing' });
      expect(await k.store().insertKey(orphan, [], [event('msg_2')])).toEqual({ result: 'no-product' });
      expect(await k.deliveryIds('wh_a')).toEqual([]);
      // Not stored at all: the ids are still free.
      expect(await k.store().addWebhookEvent(event('msg_1'))).toBe('added');
      expect(await k.store().addWebhookEvent(event('msg_2'))).toBe('added');
    });

    it("replaceKey stores its events on 'created', none on 'not-active'", async () => {
      const old = await k.created(newKey());
      const first = await k
        .store()
        .replaceKey(old, 'regeneration', newKey(), [], T0 + 1, [event('msg_1', 'key.regenerated')]);
      expect(first.result).toBe('created');
      const again = await k
        .store()
        .replaceKey(old, 'transfert', newKey(), [], T0 + 2, [event('msg_2', 'key.transferred')]);
      expect(again).toEqual({ result: 'not-active' });
      expect(await k.eventIds('wh_a')).toEqual(['msg_1']);
    });

    it("revokeKey stores its events on 'revoked', none on 'not-active'", async () => {
      const id = await k.created(newKey());
      expect(await k.store().revokeKey(id, null, T0 + 1, [event('msg_1', 'key.revoked')])).toBe('revoked');
      expect(await k.store().revokeKey(id, null, T0 + 2, [event('msg_2', 'key.revoked')])).toBe('not-active');
      expect(await k.store().revokeKey('no-such-key', null, T0, [event('msg_3', 'key.revoked')])).toBe('not-active');
      expect(await k.eventIds('wh_a')).toEqual(['msg_1']);
    });

    it("bindDomain stores its events on 'bound' only, none on 'already' nor 'full'", async () => {
      const id = await k.created(newKey());
      expect(await k.store().bindDomain(id, 'a.fr', 1, T0, [event('msg_1', 'domain.bound')])).toBe('bound');
      expect(await k.store().bindDomain(id, 'a.fr', 1, T0, [event('msg_2', 'domain.bound')])).toBe('already');
      expect(await k.store().bindDomain(id, 'b.fr', 1, T0, [event('msg_3', 'domain.bound')])).toBe('full');
      expect(await k.eventIds('wh_a')).toEqual(['msg_1']);
    });

    it('is one transaction: a change whose event cannot be stored (its id is taken) is not made', async () => {
      await k.store().addWebhookEvent(event('msg_taken'));
      const key = newKey();
      await expect(k.store().insertKey(key, [], [event('msg_taken')])).rejects.toThrow();
      expect(await k.store().findKeyByHash(key.hash)).toBeNull();
      const id = await k.created(newKey());
      await expect(k.store().bindDomain(id, 'a.fr', 1, T0, [event('msg_taken', 'domain.bound')])).rejects.toThrow();
      expect((await k.store().findKeyById(id))?.domains).toEqual([]);
    });
  });
}

/** ports.ts NewWebhookEvent (the fan-out) and `addWebhookEvent`. */
function fanOutContract(k: Kit): void {
  describe('fan-out and addWebhookEvent (docs/protocol.md#webhooks)', () => {
    it("delivers to the endpoints subscribed to the type, of the product's author or of every author", async () => {
      await k.store().addWebhookEndpoint(endpoint('wh_alice', 'alice', ['key.issued']));
      await k.store().addWebhookEndpoint(endpoint('wh_all', null, ['key.issued', 'key.revoked']));
      await k.store().addWebhookEndpoint(endpoint('wh_bob', 'bob', ['key.issued']));
      await k.store().addWebhookEndpoint(endpoint('wh_other_type', 'alice', ['key.revoked']));
      expect(await k.store().addWebhookEvent(event('msg_1', 'key.issued', 'theme'))).toBe('added');
      expect(await k.store().addWebhookEvent(event('msg_2', 'key.issued', 'other'))).toBe('added');
      expect(await k.eventIds('wh_alice')).toEqual(['msg_1']);
      expect(await k.eventIds('wh_all')).toEqual(['msg_2', 'msg_1']);
      expect(await k.eventIds('wh_bob')).toEqual(['msg_2']);
      expect(await k.eventIds('wh_other_type')).toEqual([]);
    });

    it('gives an endpoint made after an event nothing of it', async () => {
      await k.store().addWebhookEvent(event('msg_1'));
      await k.store().addWebhookEndpoint(endpoint('wh_late'));
      await k.store().addWebhookEvent(event('msg_2'));
      expect(await k.eventIds('wh_late')).toEqual(['msg_2']);
    });

    it("answers 'duplicate' for a stored dedupe, even with no endpoint, and stores nothing then", async () => {
      expect(await k.store().addWebhookEvent(event('msg_1', 'verdict.refused', 'theme', T0, 'd1'))).toBe('added');
      await k.store().addWebhookEndpoint(endpoint('wh_a'));
      const twice = event('msg_2', 'verdict.refused', 'theme', T0 + 1, 'd1');
      expect(await k.store().addWebhookEvent(twice)).toBe('duplicate');
      expect(await k.deliveryIds('wh_a')).toEqual([]);
      expect(await k.store().addWebhookEvent(event('msg_3', 'verdict.refused', 'theme', T0, 'd2'))).toBe('added');
      // A null dedupe never clashes.
      expect(await k.store().addWebhookEvent(event('msg_4'))).toBe('added');
      expect(await k.store().addWebhookEvent(event('msg_5'))).toBe('added');
      expect(await k.eventIds('wh_a')).toEqual(['msg_5', 'msg_4', 'msg_3']);
    });
  });
}

/** Webhooks: every sentence of ports.ts about endpoints, events, deliveries and the purge. */
export function webhooksContract(context: ContractContext): void {
  describe('webhooks (docs/protocol.md#webhooks)', () => {
    const k = kit(context);
    beforeEach(async () => {
      await setUp(context.store());
    });
    endpointContract(k);
    outboxContract(k);
    fanOutContract(k);
    claimContract(k);
    attemptContract(k);
    rotationContract(k);
    purgeContract(k);
  });
}
