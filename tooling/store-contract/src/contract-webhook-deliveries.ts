import { beforeEach, describe, expect, it } from 'vitest';
import { webhookDeliveryId } from '@licence/service';
import { T0 } from './contract-context.js';
import { attempt, endpoint, event } from './contract-webhook-kit.js';
import type { Kit } from './contract-webhook-kit.js';

/**
 * The deliverer's side of the webhooks' storage (ports.ts `claimWebhookDeliveries`,
 * `finishWebhookAttempt`, `retryWebhookDelivery`, `listWebhookDeliveries`, `rotateWebhookSecret`,
 * `purgeWebhookEvents`; docs/protocol.md#webhooks). Endpoint `wh_a` is alice's and hears
 * `key.issued` only; events are alice's `key.issued` at T0 unless a test says otherwise.
 */

const dlv = (eventId: string, endpointId = 'wh_a'): string => webhookDeliveryId(eventId, endpointId);

/** ports.ts `claimWebhookDeliveries`. */
export function claimContract(k: Kit): void {
  describe('claimWebhookDeliveries (docs/protocol.md#webhooks)', () => {
    beforeEach(async () => {
      await k.store().addWebhookEndpoint(endpoint('wh_a', 'alice', ['key.issued']));
    });

    it('hands out a due delivery with its url, body, attempts so far and signing secrets', async () => {
      const added = event('msg_1');
      await k.store().addWebhookEvent(added);
      expect(await k.store().claimWebhookDeliveries(T0, T0 + 30, 10)).toEqual([
        {
          id: dlv('msg_1'),
          endpointId: 'wh_a',
          eventId: 'msg_1',
          url: 'https://shop.example/wh_a',
          body: added.body,
          attempts: 0,
          secrets: ['whsec_test_wh_a'],
        },
      ]);
    });

    it('claims a delivery only once it is due (nextAttemptAt <= now)', async () => {
      await k.store().addWebhookEvent(event('msg_1', 'key.issued', 'theme', T0 + 10));
      expect(await k.claim(T0 + 9)).toEqual([]);
      expect(await k.claim(T0 + 10)).toEqual([dlv('msg_1')]);
    });

    it("claims at most one per endpoint, the endpoint's oldest due delivery (event order)", async () => {
      await k.store().addWebhookEndpoint(endpoint('wh_b', 'alice', ['key.revoked']));
      await k.store().addWebhookEvent(event('msg_1'));
      await k.store().addWebhookEvent(event('msg_2'));
      await k.store().addWebhookEvent(event('msg_3', 'key.revoked'));
      expect(await k.claim(T0)).toEqual([dlv('msg_1'), dlv('msg_3', 'wh_b')]);
    });

    it('skips an endpoint while a claim of it holds (leaseUntil > now); a lapsed claim is claimed again', async () => {
      await k.store().addWebhookEvent(event('msg_1'));
      await k.store().addWebhookEvent(event('msg_2'));
      expect(await k.claim(T0)).toEqual([dlv('msg_1')]);
      // msg_2 is due too, but its endpoint has a delivery in flight until T0 + 30.
      expect(await k.claim(T0 + 29)).toEqual([]);
      expect(await k.claim(T0 + 30)).toEqual([dlv('msg_1')]);
    });

    it('does not let an oldest delivery that is not due block the next one of its endpoint', async () => {
      await k.store().addWebhookEvent(event('msg_1'));
      await k.store().addWebhookEvent(event('msg_2'));
      expect(await k.settle(T0, { status: 'pending', nextAttemptAt: T0 + 100 })).toEqual([dlv('msg_1')]);
      expect(await k.claim(T0 + 1)).toEqual([dlv('msg_2')]);
    });

    it('claims up to `limit`, the oldest deliveries first', async () => {
      await k.store().addWebhookEndpoint(endpoint('wh_b', 'alice', ['key.revoked']));
      await k.store().addWebhookEndpoint(endpoint('wh_c', 'alice', ['domain.bound']));
      await k.store().addWebhookEvent(event('msg_1', 'domain.bound'));
      await k.store().addWebhookEvent(event('msg_2', 'key.revoked'));
      await k.store().addWebhookEvent(event('msg_3'));
      const first = await k.store().claimWebhookDeliveries(T0, T0 + 30, 2);
      expect(first.map((claimed) => claimed.id)).toEqual([dlv('msg_1', 'wh_c'), dlv('msg_2', 'wh_b')]);
      expect(await k.claim(T0)).toEqual([dlv('msg_3')]);
    });

    it('never hands one delivery, nor two of one endpoint, to concurrent claims', async () => {
      const endpoints = ['wh_1', 'wh_2', 'wh_3', 'wh_4', 'wh_5'];
      for (const id of endpoints) await k.store().addWebhookEndpoint(endpoint(id, 'alice', ['key.revoked']));
      for (const id of ['msg_1', 'msg_2', 'msg_3']) await k.store().addWebhookEvent(event(id, 'key.revoked'));
      const rounds = await Promise.all([1, 2, 3, 4].map(() => k.store().claimWebhookDeliveries(T0, T0 + 30, 100)));
      const ids = rounds.flat().map((claimed) => claimed.id);
      expect(ids.sort()).toEqual(endpoints.map((id) => dlv('msg_1', id)).sort());
    });
  });
}

/** ports.ts `finishWebhookAttempt`, `retryWebhookDelivery`, `listWebhookDeliveries`. */
export function attemptContract(k: Kit): void {
  describe('attempts, retry and the delivery log (docs/protocol.md#webhooks)', () => {
    beforeEach(async () => {
      await k.store().addWebhookEndpoint(endpoint('wh_a', 'alice', ['key.issued']));
      await k.store().addWebhookEvent(event('msg_1'));
    });

    it('delivered: records the attempt and ends the claim; the next one of the endpoint is claimable at once', async () => {
      await k.store().addWebhookEvent(event('msg_2'));
      expect(await k.settle(T0, { status: 'delivered' })).toEqual([dlv('msg_1')]);
      expect(await k.delivery('wh_a', 'msg_1')).toMatchObject({
        status: 'delivered',
        nextAttemptAt: null,
        attempts: [attempt(T0, 204)],
      });
      expect(await k.claim(T0)).toEqual([dlv('msg_2')]);
    });

    it('pending: due again at nextAttemptAt, its attempts counted in the next claim', async () => {
      await k.settle(T0, { status: 'pending', nextAttemptAt: T0 + 5 });
      expect(await k.delivery('wh_a', 'msg_1')).toMatchObject({ status: 'pending', nextAttemptAt: T0 + 5 });
      expect(await k.claim(T0 + 4)).toEqual([]);
      const claimed = await k.store().claimWebhookDeliveries(T0 + 5, T0 + 35, 10);
      expect(claimed.map(({ id, attempts }) => ({ id, attempts }))).toEqual([{ id: dlv('msg_1'), attempts: 1 }]);
    });

    it('failed: failed for good, nextAttemptAt null, never claimed again', async () => {
      await k.settle(T0, { status: 'failed' });
      expect(await k.delivery('wh_a', 'msg_1')).toMatchObject({ status: 'failed', nextAttemptAt: null });
      expect(await k.claim(T0 + 10_000_000)).toEqual([]);
    });

    it('keeps every attempt, oldest first', async () => {
      await k.settle(T0, { status: 'pending', nextAttemptAt: T0 + 5 });
      await k.settle(T0 + 5, { status: 'pending', nextAttemptAt: T0 + 300 });
      await k.settle(T0 + 300, { status: 'delivered' });
      const attempts = [attempt(T0), attempt(T0 + 5), attempt(T0 + 300, 204)];
      expect((await k.delivery('wh_a', 'msg_1'))?.attempts).toEqual(attempts);
      const timeout = attempt(T0 + 400, null);
      await k.store().retryWebhookDelivery('wh_a', dlv('msg_1'), T0 + 400);
      const [claimed] = await k.store().claimWebhookDeliveries(T0 + 400, T0 + 430, 1);
      await k.store().finishWebhookAttempt(claimed?.id ?? '', timeout, { status: 'failed' });
      expect((await k.delivery('wh_a', 'msg_1'))?.attempts).toEqual([...attempts, timeout]);
    });

    it('finishing an unknown delivery does nothing', async () => {
      const finished = k.store().finishWebhookAttempt('dlv_missing', attempt(T0), { status: 'delivered' });
      await expect(finished).resolves.toBeUndefined();
      expect(await k.delivery('wh_a', 'msg_1')).toMatchObject({ status: 'pending', attempts: [] });
    });

    it('retry: pending again and due at now, whatever its status, its attempts kept', async () => {
      await k.settle(T0, { status: 'failed' });
      const retried = await k.store().retryWebhookDelivery('wh_a', dlv('msg_1'), T0 + 1000);
      expect(retried).toEqual({ ...(await k.delivery('wh_a', 'msg_1')), status: 'pending', nextAttemptAt: T0 + 1000 });
      expect(retried?.attempts).toEqual([attempt(T0)]);
      await k.settle(T0 + 1000, { status: 'delivered' });
      expect(await k.store().retryWebhookDelivery('wh_a', dlv('msg_1'), T0 + 2000)).toMatchObject({
        status: 'pending',
        nextAttemptAt: T0 + 2000,
      });
      const claimed = await k.store().claimWebhookDeliveries(T0 + 2000, T0 + 2030, 10);
      expect(claimed.map(({ id, attempts }) => ({ id, attempts }))).toEqual([{ id: dlv('msg_1'), attempts: 2 }]);
    });

    it("retry answers null for an unknown delivery or another endpoint's, and changes nothing", async () => {
      await k.store().addWebhookEndpoint(endpoint('wh_b', 'alice', ['key.revoked']));
      await k.settle(T0, { status: 'failed' });
      expect(await k.store().retryWebhookDelivery('wh_b', dlv('msg_1'), T0 + 1)).toBeNull();
      expect(await k.store().retryWebhookDelivery('wh_a', 'dlv_missing', T0 + 1)).toBeNull();
      expect(await k.delivery('wh_a', 'msg_1')).toMatchObject({ status: 'failed', nextAttemptAt: null });
    });

    it('lists the `limit` newest deliveries first (event order); none for an unknown endpoint', async () => {
      for (const id of ['msg_2', 'msg_3', 'msg_4']) await k.store().addWebhookEvent(event(id));
      const listed = await k.store().listWebhookDeliveries('wh_a', 2);
      expect(listed.map((delivery) => delivery.eventId)).toEqual(['msg_4', 'msg_3']);
      expect(await k.eventIds('wh_a')).toEqual(['msg_4', 'msg_3', 'msg_2', 'msg_1']);
      expect(await k.store().listWebhookDeliveries('wh_missing', 10)).toEqual([]);
    });
  });
}

/** ports.ts `rotateWebhookSecret`, and the secrets of a claim. */
export function rotationContract(k: Kit): void {
  describe('secret rotation (docs/protocol.md#webhooks)', () => {
    beforeEach(async () => {
      await k.store().addWebhookEndpoint(endpoint('wh_a', 'alice', ['key.issued']));
      await k.store().addWebhookEvent(event('msg_1'));
    });

    /** The secrets a claim at `now` carries; the delivery is then due again at `now`. */
    async function secretsAt(now: number): Promise<readonly string[] | undefined> {
      const [claimed] = await k.store().claimWebhookDeliveries(now, now + 30, 1);
      await k.store().finishWebhookAttempt(claimed?.id ?? '', attempt(now), { status: 'pending', nextAttemptAt: now });
      return claimed?.secrets;
    }

    it('signs with the new and the old secret (newest first) until previousUntil, then with the new one only', async () => {
      expect(await k.store().rotateWebhookSecret('wh_a', 'whsec_test_2', T0 + 100)).toBe(true);
      expect(await secretsAt(T0 + 99)).toEqual(['whsec_test_2', 'whsec_test_wh_a']);
      expect(await secretsAt(T0 + 100)).toEqual(['whsec_test_2']);
      expect(await k.store().rotateWebhookSecret('wh_missing', 'whsec_test_x', T0 + 100)).toBe(false);
    });

    it('ends only the secrets without an end; one ended at or before previousUntil is deleted', async () => {
      await k.store().rotateWebhookSecret('wh_a', 'whsec_test_2', T0 + 100);
      await k.store().rotateWebhookSecret('wh_a', 'whsec_test_3', T0 + 200);
      // The first secret's end (T0 + 100) was before the second rotation's previousUntil: gone.
      expect(await secretsAt(T0 + 50)).toEqual(['whsec_test_3', 'whsec_test_2']);
      expect(await secretsAt(T0 + 199)).toEqual(['whsec_test_3', 'whsec_test_2']);
      expect(await secretsAt(T0 + 200)).toEqual(['whsec_test_3']);
    });

    it('keeps at most one old secret: two rotations ending at the same time leave the newest two', async () => {
      await k.store().rotateWebhookSecret('wh_a', 'whsec_test_2', T0 + 100);
      await k.store().rotateWebhookSecret('wh_a', 'whsec_test_3', T0 + 100);
      expect(await secretsAt(T0 + 50)).toEqual(['whsec_test_3', 'whsec_test_2']);
    });
  });
}

/** ports.ts `purgeWebhookEvents`. */
export function purgeContract(k: Kit): void {
  describe('purgeWebhookEvents (docs/protocol.md#webhooks)', () => {
    beforeEach(async () => {
      await k.store().addWebhookEndpoint(endpoint('wh_a', 'alice', ['key.issued']));
      await k.store().addWebhookEndpoint(endpoint('wh_b', 'alice', ['key.revoked']));
      await k.store().addWebhookEndpoint(endpoint('wh_c', 'alice', ['domain.bound']));
      await k.store().addWebhookEvent(event('msg_1'));
      await k.store().addWebhookEvent(event('msg_2', 'key.revoked'));
      await k.store().addWebhookEvent(event('msg_3', 'domain.bound'));
      // Bob's: no endpoint hears it, so it has no delivery at all.
      await k.store().addWebhookEvent(event('msg_4', 'key.issued', 'other', T0, 'd4'));
      await k.store().addWebhookEvent(event('msg_5', 'key.revoked', 'theme', T0 + 100));
      const claimed = await k.claim(T0);
      expect(claimed).toEqual([dlv('msg_1'), dlv('msg_2', 'wh_b'), dlv('msg_3', 'wh_c')]);
      await k.store().finishWebhookAttempt(dlv('msg_1'), attempt(T0, 204), { status: 'delivered' });
      await k.store().finishWebhookAttempt(dlv('msg_2', 'wh_b'), attempt(T0), { status: 'failed' });
      const retry = { status: 'pending', nextAttemptAt: T0 + 500 } as const;
      await k.store().finishWebhookAttempt(dlv('msg_3', 'wh_c'), attempt(T0), retry);
    });

    it('deletes the events strictly before the cut that no pending delivery holds, with their deliveries', async () => {
      expect(await k.store().purgeWebhookEvents(T0)).toBe(0);
      expect(await k.store().purgeWebhookEvents(T0 + 101)).toBe(3);
      expect(await k.eventIds('wh_a')).toEqual([]);
      expect(await k.eventIds('wh_b')).toEqual(['msg_5']);
      expect(await k.eventIds('wh_c')).toEqual(['msg_3']);
      expect(await k.store().purgeWebhookEvents(T0 + 101)).toBe(0);
    });

    it('deletes an event once its last pending delivery is done, and frees its dedupe', async () => {
      await k.store().purgeWebhookEvents(T0 + 101);
      expect(await k.store().addWebhookEvent(event('msg_6', 'key.issued', 'other', T0 + 1000, 'd4'))).toBe('added');
      expect(await k.settle(T0 + 500, { status: 'delivered' })).toEqual([dlv('msg_3', 'wh_c'), dlv('msg_5', 'wh_b')]);
      expect(await k.store().purgeWebhookEvents(T0 + 101)).toBe(2);
      expect(await k.eventIds('wh_b')).toEqual([]);
      expect(await k.eventIds('wh_c')).toEqual([]);
    });
  });
}
