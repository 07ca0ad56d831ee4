import type { MemoryEndpointRow, MemoryRun, MemoryState } from './state.js';
import type { Store } from '@licence/service';

type WebhookEndpointRecord = Store.WebhookEndpointRecord;

/** A fresh frozen copy of the record's own fields (so never a secret passed beside them). */
function frozenRecord(record: WebhookEndpointRecord): WebhookEndpointRecord {
  const { id, author, url, events, createdAt } = record;
  return Object.freeze({ id, author, url, events: Object.freeze([...events]), createdAt });
}

const toRecord = (row: MemoryEndpointRow): WebhookEndpointRecord => frozenRecord(row.record);

function oldestFirst(a: MemoryEndpointRow, b: MemoryEndpointRow): number {
  const x = a.record;
  const y = b.record;
  return x.createdAt - y.createdAt || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
}

/** Deletes the endpoint's deliveries (and so their attempts); its events stay for the others. */
function deleteDeliveries(state: MemoryState, endpointId: string): void {
  for (const delivery of state.webhookDeliveries.values()) {
    if (delivery.endpointId === endpointId) state.webhookDeliveries.delete(delivery.id);
  }
}

/** How many endpoints `author` has. */
function countOf(state: MemoryState, author: string): number {
  let count = 0;
  for (const row of state.webhookEndpoints.values()) if (row.record.author === author) count += 1;
  return count;
}

/**
 * A rotation (docs/protocol.md#webhooks): the secrets in use sign until `previousUntil` beside the
 * new one. A secret that had already been given an end at or before `previousUntil` (a rotation before
 * this one) goes: at most the current pair is kept.
 */
function rotate(row: MemoryEndpointRow, secret: string, previousUntil: number): void {
  row.secrets = row.secrets.filter((kept) => kept.until === null || kept.until > previousUntil);
  for (const kept of row.secrets) {
    if (kept.until === null) kept.until = previousUntil;
  }
  row.secrets.push({ secret, until: null });
}

/**
 * The memory store's webhook endpoints and their secrets (docs/protocol.md#webhooks). An endpoint
 * of every author has `author` null; another must name a known author.
 */
export function memoryWebhooks(
  state: MemoryState,
  run: MemoryRun,
): Pick<
  Store,
  'addWebhookEndpoint' | 'listWebhookEndpoints' | 'getWebhookEndpoint' | 'deleteWebhookEndpoint' | 'rotateWebhookSecret'
> {
  return {
    addWebhookEndpoint: (endpoint, perAuthor) =>
      run(() => {
        const { author } = endpoint;
        if (author !== null && !state.authors.has(author)) return { result: 'no-author' as const };
        // docs/protocol.md#endpoints: the quota counts the author's own endpoints, not every author's.
        if (author !== null && perAuthor !== undefined && countOf(state, author) >= perAuthor) {
          return { result: 'too-many' as const };
        }
        // Ids are random: a clash is a bug of the caller, as a SQL store's primary key says.
        if (state.webhookEndpoints.has(endpoint.id)) {
          throw new Error('memory store: a webhook endpoint with this id already exists');
        }
        const secrets = [{ secret: endpoint.secret, until: null }];
        state.webhookEndpoints.set(endpoint.id, { record: frozenRecord(endpoint), secrets });
        return { result: 'created' as const, id: endpoint.id };
      }),
    listWebhookEndpoints: (author) =>
      run(() =>
        [...state.webhookEndpoints.values()]
          .filter((row) => author === null || row.record.author === author)
          .sort(oldestFirst)
          .map(toRecord),
      ),
    getWebhookEndpoint: (id) =>
      run(() => {
        const row = state.webhookEndpoints.get(id);
        return row === undefined ? null : toRecord(row);
      }),
    deleteWebhookEndpoint: (id) =>
      run(() => {
        deleteDeliveries(state, id);
        return state.webhookEndpoints.delete(id);
      }),
    rotateWebhookSecret: (id, secret, previousUntil) =>
      run(() => {
        const row = state.webhookEndpoints.get(id);
        if (row === undefined) return false;
        rotate(row, secret, previousUntil);
        return true;
      }),
  };
}
