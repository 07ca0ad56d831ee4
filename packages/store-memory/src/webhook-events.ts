import type { MemoryEndpointRow, MemoryRun, MemoryState } from './state.js';
import type { Store } from '@licence/service';
import { webhookDeliveryId } from '@licence/service';

type NewWebhookEvent = Store.NewWebhookEvent;

function isDuplicate(state: MemoryState, dedupe: string | null): boolean {
  if (dedupe === null) return false;
  for (const event of state.webhookEvents.values()) {
    if (event.dedupe === dedupe) return true;
  }
  return false;
}

/**
 * Throws when an event could not be stored (its id is taken: ids are random, so a bug of the
 * caller, as a SQL store's primary key says). Called BEFORE the change that causes the events, so
 * that the change and its events happen together or not at all (the outbox, docs/protocol.md#webhooks).
 */
export function checkWebhookEvents(state: MemoryState, events: readonly NewWebhookEvent[]): void {
  const ids = new Set<string>();
  for (const event of events) {
    if (state.webhookEvents.has(event.id) || ids.has(event.id)) {
      throw new Error('memory store: a webhook event with this id already exists');
    }
    ids.add(event.id);
  }
}

/** ports.ts NewWebhookEvent: subscribed to the type, and the product's author's or every author's. */
function receives(endpoint: MemoryEndpointRow, event: NewWebhookEvent, author: string | undefined): boolean {
  const record = endpoint.record;
  return record.events.includes(event.type) && (record.author === null || record.author === author);
}

/**
 * Stores each event whose `dedupe` is not stored yet and fans it out at once into one pending
 * delivery, due at the event's time, per endpoint that receives it; answers whether it stored
 * them all. Endpoints made later never receive it.
 */
export function storeWebhookEvents(state: MemoryState, events: readonly NewWebhookEvent[]): boolean {
  let all = true;
  for (const event of events) {
    if (isDuplicate(state, event.dedupe)) {
      all = false;
      continue;
    }
    const seq = state.nextWebhookSeq;
    state.nextWebhookSeq += 1;
    state.webhookEvents.set(event.id, Object.freeze({ ...event, seq }));
    const author = state.products.get(event.produit)?.author;
    for (const endpoint of state.webhookEndpoints.values()) {
      if (!receives(endpoint, event, author)) continue;
      const id = webhookDeliveryId(event.id, endpoint.record.id);
      const endpointId = endpoint.record.id;
      state.webhookDeliveries.set(id, {
        id,
        endpointId,
        eventId: event.id,
        seq,
        status: 'pending',
        nextAttemptAt: event.at,
        leaseUntil: null,
        attempts: [],
      });
    }
  }
  return all;
}

/** Deletes the events before `before` that no pending delivery holds, with their deliveries. */
function purgeEvents(state: MemoryState, before: number): number {
  const held = new Set<string>();
  for (const delivery of state.webhookDeliveries.values()) {
    if (delivery.status === 'pending') held.add(delivery.eventId);
  }
  let deleted = 0;
  for (const event of state.webhookEvents.values()) {
    if (event.at >= before || held.has(event.id)) continue;
    state.webhookEvents.delete(event.id);
    deleted += 1;
  }
  for (const delivery of state.webhookDeliveries.values()) {
    if (!state.webhookEvents.has(delivery.eventId)) state.webhookDeliveries.delete(delivery.id);
  }
  return deleted;
}

/**
 * The memory store's outbox (docs/protocol.md#webhooks): an event no key change causes
 * (`verdict.refused`, once per `dedupe`), and the purge of old events.
 */
export function memoryWebhookEvents(
  state: MemoryState,
  run: MemoryRun,
): Pick<Store, 'addWebhookEvent' | 'purgeWebhookEvents'> {
  return {
    addWebhookEvent: (event) =>
      run(() => {
        checkWebhookEvents(state, [event]);
        return storeWebhookEvents(state, [event]) ? ('added' as const) : ('duplicate' as const);
      }),
    purgeWebhookEvents: (before) => run(() => purgeEvents(state, before)),
  };
}
