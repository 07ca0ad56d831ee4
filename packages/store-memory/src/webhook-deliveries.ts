import type { MemoryDeliveryRow, MemoryEndpointRow, MemoryEventRow, MemoryRun, MemoryState } from './state.js';
import type { Store } from '@licence/service';

function eventOf(state: MemoryState, row: MemoryDeliveryRow): MemoryEventRow {
  const event = state.webhookEvents.get(row.eventId);
  // The purge deletes an event with its deliveries, so a delivery always has its event.
  if (event === undefined) throw new Error('memory store: a webhook delivery without its event');
  return event;
}

/** A delivery as its log shows it: a fresh frozen copy, attempts oldest first. */
function toRecord(state: MemoryState, row: MemoryDeliveryRow): Store.WebhookDeliveryRecord {
  const event = eventOf(state, row);
  return Object.freeze({
    id: row.id,
    endpointId: row.endpointId,
    eventId: row.eventId,
    type: event.type,
    createdAt: event.at,
    status: row.status,
    nextAttemptAt: row.nextAttemptAt,
    attempts: Object.freeze(row.attempts.map((attempt) => Object.freeze({ ...attempt }))),
  });
}

/** The secrets that sign at `now`, newest first (docs/protocol.md#webhooks: rotation). */
function validSecrets(endpoint: MemoryEndpointRow, now: number): readonly string[] {
  const valid = endpoint.secrets.filter((row) => row.until === null || row.until > now);
  return Object.freeze(valid.map((row) => row.secret).reverse());
}

/**
 * ports.ts `claimWebhookDeliveries`: of each endpoint without a claim running past `now`, its
 * oldest due pending delivery; the oldest of those first, up to `limit`. The deliveries are kept in
 * event order, so the first due one met is the endpoint's oldest.
 */
function dueDeliveries(state: MemoryState, now: number, limit: number): MemoryDeliveryRow[] {
  const busy = new Set<string>();
  for (const row of state.webhookDeliveries.values()) {
    if (row.leaseUntil !== null && row.leaseUntil > now) busy.add(row.endpointId);
  }
  const due: MemoryDeliveryRow[] = [];
  for (const row of state.webhookDeliveries.values()) {
    if (due.length >= limit) break;
    if (busy.has(row.endpointId) || row.status !== 'pending') continue;
    if (row.nextAttemptAt === null || row.nextAttemptAt > now) continue;
    busy.add(row.endpointId);
    due.push(row);
  }
  return due;
}

function toClaimed(state: MemoryState, row: MemoryDeliveryRow, now: number): Store.ClaimedWebhookDelivery {
  const endpoint = state.webhookEndpoints.get(row.endpointId);
  if (endpoint === undefined) throw new Error('memory store: a webhook delivery without its endpoint');
  return Object.freeze({
    id: row.id,
    endpointId: row.endpointId,
    eventId: row.eventId,
    url: endpoint.record.url,
    body: eventOf(state, row).body,
    attempts: row.attempts.length,
    secrets: validSecrets(endpoint, now),
  });
}

/**
 * The memory store's deliveries (docs/protocol.md#webhooks): the log and manual retry, and the
 * deliverer's claims and attempts. A claim is the delivery's `leaseUntil`; work runs without an
 * `await`, so two racing claims never take one delivery.
 */
export function memoryWebhookDeliveries(
  state: MemoryState,
  run: MemoryRun,
): Pick<Store, 'listWebhookDeliveries' | 'retryWebhookDelivery' | 'claimWebhookDeliveries' | 'finishWebhookAttempt'> {
  return {
    listWebhookDeliveries: (endpointId, limit) =>
      run(() =>
        [...state.webhookDeliveries.values()]
          .filter((row) => row.endpointId === endpointId)
          .reverse()
          .slice(0, Math.max(0, limit))
          .map((row) => toRecord(state, row)),
      ),
    retryWebhookDelivery: (endpointId, deliveryId, now) =>
      run(() => {
        const row = state.webhookDeliveries.get(deliveryId);
        if (row === undefined || row.endpointId !== endpointId) return null;
        // A claim in flight is left to end by itself: clearing it could send the delivery twice.
        row.status = 'pending';
        row.nextAttemptAt = now;
        return toRecord(state, row);
      }),
    claimWebhookDeliveries: (now, leaseUntil, limit) =>
      run(() =>
        dueDeliveries(state, now, limit).map((row) => {
          row.leaseUntil = leaseUntil;
          return toClaimed(state, row, now);
        }),
      ),
    finishWebhookAttempt: (deliveryId, attempt, outcome) =>
      run(() => {
        const row = state.webhookDeliveries.get(deliveryId);
        if (row === undefined) return;
        row.attempts.push({
          at: attempt.at,
          status: attempt.status,
          error: attempt.error,
          durationMs: attempt.durationMs,
        });
        row.status = outcome.status;
        row.nextAttemptAt = outcome.status === 'pending' ? outcome.nextAttemptAt : null;
        row.leaseUntil = null;
      }),
  };
}
