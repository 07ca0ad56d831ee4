import { isRecord } from '@licence/core';
import { storedColumn } from '@licence/service';
import type { Store } from '@licence/service';
import { readWholeSeconds } from './rows.js';

/**
 * The webhook tables' rows as `pg` returns them (migration step 5): int8 times as decimal strings,
 * `text[]` as arrays, attempts as one JSON array per delivery (json_agg), where int8 are JSON
 * numbers. A type or a status the service never writes means a database changed by hand or by a
 * newer build: refused, never guessed (as rows.ts does for keys).
 */

export interface EndpointRow {
  readonly id: string;
  readonly author: string | null;
  readonly url: string;
  readonly events: readonly string[];
  readonly created_at: string;
}

export interface DeliveryRow {
  readonly id: string;
  readonly endpoint_id: string;
  readonly event_id: string;
  readonly type: string;
  readonly at: string;
  readonly status: string;
  readonly next_attempt_at: string | null;
  readonly attempts: unknown;
}

export const ENDPOINT_SELECT = 'SELECT id, author, url, events, created_at FROM webhook_endpoints';

/**
 * A delivery (`d`) joined with its event (`e`), its attempts oldest first as one JSON array, so a
 * page of the log is one statement.
 */
export const DELIVERY_COLUMNS = `
  d.id, d.endpoint_id, e.id AS event_id, e.type, e.at, d.status, d.next_attempt_at,
  coalesce((SELECT json_agg(json_build_object('at', a.at, 'status', a.status, 'error', a.error,
                                              'duration_ms', a.duration_ms) ORDER BY a.seq)
              FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]'::json) AS attempts`;

export function toEndpointRecord(row: EndpointRow): Store.WebhookEndpointRecord {
  const where = `webhook_endpoints.events of ${row.id}`;
  return {
    id: row.id,
    author: row.author,
    url: row.url,
    events: row.events.map((value) => storedColumn.eventType(where, value)),
    createdAt: readWholeSeconds('webhook_endpoints.created_at', row.created_at),
  };
}

function toAttemptRecord(deliveryId: string, item: unknown): Store.WebhookAttemptRecord {
  const where = `webhook_attempts of ${deliveryId}`;
  if (!isRecord(item)) {
    throw new TypeError(`${where}: expected objects`);
  }
  const { at, status, error, duration_ms: durationMs } = item;
  if (
    typeof at !== 'number' ||
    (status !== null && typeof status !== 'number') ||
    (error !== null && typeof error !== 'string') ||
    typeof durationMs !== 'number'
  ) {
    throw new TypeError(`${where}: expected {at, status, error, duration_ms}`);
  }
  return { at: readWholeSeconds('webhook_attempts.at', at), status, error, durationMs };
}

export function toDeliveryRecord(row: DeliveryRow): Store.WebhookDeliveryRecord {
  if (!Array.isArray(row.attempts)) {
    throw new TypeError(`webhook_attempts of ${row.id}: expected a JSON array`);
  }
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    type: storedColumn.eventType(`webhook_events.type of ${row.event_id}`, row.type),
    createdAt: readWholeSeconds('webhook_events.at', row.at),
    status: storedColumn.deliveryStatus(row.id, row.status),
    nextAttemptAt:
      row.next_attempt_at === null ? null : readWholeSeconds('webhook_deliveries.next_attempt_at', row.next_attempt_at),
    attempts: row.attempts.map((item: unknown) => toAttemptRecord(row.id, item)),
  };
}
