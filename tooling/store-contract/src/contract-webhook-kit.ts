import type { Store } from '@licence/service';
import { WEBHOOK_EVENT_TYPES } from '@licence/service';
import type { WebhookEventType } from '@licence/service';
import { product, T0 } from './contract-context.js';
import type { ContractContext } from './contract-context.js';

type NewKey = Store.NewKey;

/**
 * What the webhook parts of the contract (contract-webhooks.ts, contract-webhook-deliveries.ts)
 * share: records to store, and short ways to read the store back through the port.
 */

/** A well-formed endpoint; its secret is a test value, not a real one. */
export function endpoint(
  id: string,
  author: string | null = 'alice',
  events: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES,
  createdAt = T0,
): Store.NewWebhookEndpoint {
  return { id, author, url: `https://shop.example/${id}`, events, createdAt, secret: `whsec_test_${id}` };
}

/** The endpoint as listed: never its secret. */
export function listed(added: Store.NewWebhookEndpoint): Store.WebhookEndpointRecord {
  const { secret: _secret, ...record } = added;
  return record;
}

export function event(
  id: string,
  type: WebhookEventType = 'key.issued',
  produit = 'theme',
  at = T0,
  dedupe: string | null = null,
): Store.NewWebhookEvent {
  return { id, type, produit, at, body: JSON.stringify({ type, id }), dedupe };
}

/** An attempt as the deliverer records it: a status, or null and why. */
export function attempt(at: number, status: number | null = 500): Store.WebhookAttemptRecord {
  return { at, status, error: status === null ? 'timeout after 15 s' : null, durationMs: 12 };
}

let hashes = 0;

export function newKey(fields: Partial<NewKey> = {}): NewKey {
  hashes += 1;
  const hash = hashes.toString(16).padStart(64, 'e');
  return { hash, hint: 'W3BH', produit: 'theme', kind: 'buyer', sites: 1, expiresAt: null, createdAt: T0, ...fields };
}

/** The parts every test of this suite shares: the store, and short ways to read it. */
export interface Kit {
  readonly store: () => Store;
  /** Ids of the endpoint's deliveries, newest first (the log's order). */
  readonly deliveryIds: (endpointId: string) => Promise<string[]>;
  /** Event ids of the endpoint's deliveries, newest first. */
  readonly eventIds: (endpointId: string) => Promise<string[]>;
  /** The endpoint's one delivery of `eventId`, or undefined. */
  readonly delivery: (endpointId: string, eventId: string) => Promise<Store.WebhookDeliveryRecord | undefined>;
  /** Claims at `now` (a lease of 30 s, up to 100) and answers the claimed delivery ids. */
  readonly claim: (now: number) => Promise<string[]>;
  /** Claims at `now` and finishes each claimed delivery with `outcome` (status 204 when delivered, else 500). */
  readonly settle: (now: number, outcome: Store.WebhookAttemptOutcome) => Promise<string[]>;
  readonly created: (key: NewKey, events?: readonly Store.NewWebhookEvent[]) => Promise<string>;
}

export function kit(context: ContractContext): Kit {
  const store = () => context.store();
  const list = (endpointId: string) => store().listWebhookDeliveries(endpointId, 1000);
  const claim = async (now: number) => (await store().claimWebhookDeliveries(now, now + 30, 100)).map((c) => c.id);
  return {
    store,
    deliveryIds: async (endpointId) => (await list(endpointId)).map((d) => d.id),
    eventIds: async (endpointId) => (await list(endpointId)).map((d) => d.eventId),
    delivery: async (endpointId, eventId) => (await list(endpointId)).find((d) => d.eventId === eventId),
    claim,
    settle: async (now, outcome) => {
      const ids = await claim(now);
      const status = outcome.status === 'delivered' ? 204 : 500;
      for (const id of ids) await store().finishWebhookAttempt(id, attempt(now, status), outcome);
      return ids;
    },
    created: async (key, events) => {
      const outcome = await store().insertKey(key, [], events);
      if (outcome.result !== 'created') throw new Error(`insertKey: expected created, got ${outcome.result}`);
      return outcome.id;
    },
  };
}

export async function setUp(store: Store): Promise<void> {
  await store.addAuthor({ id: 'alice', name: 'Alice', createdAt: T0 });
  await store.addAuthor({ id: 'bob', name: 'Bob', createdAt: T0 });
  await store.addProduct(product('theme', 'alice'));
  await store.addProduct(product('other', 'bob'));
}
