import type { MemoryKeyRow, MemoryRun, MemoryState } from './state.js';
import { checkWebhookEvents, storeWebhookEvents } from './webhook-events.js';
import type { Store } from '@licence/service';

function rowOf(state: MemoryState, keyId: string): MemoryKeyRow {
  const row = state.keys.get(keyId);
  if (row === undefined) throw new Error(`memory store: no key with id ${JSON.stringify(keyId)}`);
  return row;
}

/**
 * The memory store's domain bindings (docs/protocol.md#verdict rules 7 and 8). The count and the
 * insert run with no `await` between them, so two racing first calls on a one-domain key bind
 * exactly one; last seen only moves forward. Its `domain.bound` events are stored with a new
 * binding only (docs/protocol.md#webhooks).
 */
export function memoryDomains(state: MemoryState, run: MemoryRun): Pick<Store, 'bindDomain' | 'touchDomain'> {
  return {
    bindDomain: (keyId, domain, sites, now, events = []) =>
      run(() => {
        const row = rowOf(state, keyId);
        checkWebhookEvents(state, events);
        const bound = row.domains.find((entry) => entry.domain === domain);
        if (bound !== undefined) {
          bound.lastSeen = Math.max(bound.lastSeen, now);
          return 'already' as const;
        }
        if (row.domains.length >= sites) return 'full' as const;
        row.domains.push({ domain, firstSeen: now, lastSeen: now });
        storeWebhookEvents(state, events);
        return 'bound' as const;
      }),

    touchDomain: (keyId, domain, now) =>
      run(() => {
        const bound = rowOf(state, keyId).domains.find((entry) => entry.domain === domain);
        if (bound !== undefined) bound.lastSeen = Math.max(bound.lastSeen, now);
      }),
  };
}
