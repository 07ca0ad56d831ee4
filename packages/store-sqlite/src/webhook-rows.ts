import { storedColumn } from '@licence/service';
import type { Store, WebhookEventType } from '@licence/service';

/**
 * The webhook tables' rows as better-sqlite3 returns them (column names of migration step 4), and
 * their records. A value outside what the schema and the service write (a type, a status) means a
 * file edited by hand or by a newer build: it is refused rather than guessed, as stored-key-fields
 * does for keys.
 */

export interface EndpointRow {
  readonly id: string;
  readonly author: string | null;
  readonly url: string;
  readonly events: string;
  readonly created_at: number;
}

export interface DeliveryRow {
  readonly id: string;
  readonly endpoint_id: string;
  readonly event_id: string;
  readonly type: string;
  readonly at: number;
  readonly status: string;
  readonly next_attempt_at: number | null;
}

export interface AttemptRow {
  readonly at: number;
  readonly status: number | null;
  readonly error: string | null;
  readonly duration_ms: number;
}

export const ENDPOINT_COLUMNS = 'id, author, url, events, created_at';

/** A delivery joined with its event (`d` and `e`). */
export const DELIVERY_COLUMNS = 'd.id, d.endpoint_id, e.id AS event_id, e.type, e.at, d.status, d.next_attempt_at';

/** The `events` column: a JSON array of event types (migration step 4 checks it is an array). */
export function storedEventTypes(endpointId: string, text: string): WebhookEventType[] {
  const parsed: unknown = JSON.parse(text);
  const where = `webhook_endpoints.events of ${endpointId}`;
  if (!Array.isArray(parsed)) {
    throw new TypeError(`${where}: expected a JSON array`);
  }
  return parsed.map((value: unknown) => storedColumn.eventType(where, value));
}

export function toEndpointRecord(row: EndpointRow): Store.WebhookEndpointRecord {
  return {
    id: row.id,
    author: row.author,
    url: row.url,
    events: storedEventTypes(row.id, row.events),
    createdAt: row.created_at,
  };
}

export function toAttemptRecord(row: AttemptRow): Store.WebhookAttemptRecord {
  return { at: row.at, status: row.status, error: row.error, durationMs: row.duration_ms };
}

export function toDeliveryRecord(row: DeliveryRow, attempts: readonly AttemptRow[]): Store.WebhookDeliveryRecord {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    type: storedColumn.eventType(`webhook_events.type of ${row.event_id}`, row.type),
    createdAt: row.at,
    status: storedColumn.deliveryStatus(row.id, row.status),
    nextAttemptAt: row.next_attempt_at,
    attempts: attempts.map(toAttemptRecord),
  };
}
