import type { WebhookDeliveryStatus } from './store-port.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/index.js';

/**
 * Webhook values as a store's row holds them (docs/protocol.md#webhooks), for the SQLite and
 * PostgreSQL stores alike. A type or a status the service never writes means a database edited by
 * hand or by a newer build: it is refused rather than guessed, as stored-key-fields.ts refuses a
 * key's kind.
 */

export const WEBHOOK_DELIVERY_STATUSES: readonly WebhookDeliveryStatus[] = ['pending', 'delivered', 'failed'];

/** An event type read from `where` (a table, column and row, for the message). */
export function storedEventType(where: string, value: unknown): WebhookEventType {
  const type = WEBHOOK_EVENT_TYPES.find((known) => known === value);
  if (type === undefined) {
    throw new TypeError(`${where}: expected one of ${WEBHOOK_EVENT_TYPES.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return type;
}

/** The status of delivery `deliveryId`. */
export function storedDeliveryStatus(deliveryId: string, value: unknown): WebhookDeliveryStatus {
  const status = WEBHOOK_DELIVERY_STATUSES.find((known) => known === value);
  if (status === undefined) {
    throw new TypeError(`webhook_deliveries.status of ${deliveryId}: got ${JSON.stringify(value)}`);
  }
  return status;
}
