import { memoryActivity } from './memory-activity.js';
import { memoryAuthorTokens } from './memory-author-tokens.js';
import { memoryAuthors } from './memory-authors.js';
import { memoryDomains } from './memory-domains.js';
import { memoryKeyReads } from './memory-key-reads.js';
import { memoryKeyWrites } from './memory-key-writes.js';
import { memoryProducts } from './memory-products.js';
import { memoryRequestLog } from './memory-request-log.js';
import { createMemoryState, memoryRunner } from './memory-state.js';
import { memoryWebhookDeliveries } from './memory-webhook-deliveries.js';
import { memoryWebhookEvents } from './memory-webhook-events.js';
import { memoryWebhooks } from './memory-webhooks.js';
import type { MemoryLogRow } from './memory-state.js';
import type { Store } from './ports.js';

export interface MemoryStore extends Store {
  /** The request log as kept (the purge deletes entries past retention); for tests. */
  readonly requestLog: () => readonly Readonly<MemoryLogRow>[];
}

/**
 * A complete Store in process memory: for tests, for a one-off demo, and as the reference the
 * other stores are held to (the shared contract suite runs against it).
 *
 * Every method does its reads and writes without an `await` in between, so each one is atomic on
 * Node's single thread, the same guarantee a SQL transaction gives (docs/protocol.md#verdict: two
 * racing first calls on a one-domain key bind exactly one). Records handed out are fresh frozen
 * copies: a caller can never change the store behind its back. Nothing survives the process.
 */
export function createMemoryStore(): MemoryStore {
  const state = createMemoryState();
  const run = memoryRunner(state);
  return {
    ...memoryKeyReads(state, run),
    ...memoryKeyWrites(state, run),
    ...memoryDomains(state, run),
    ...memoryProducts(state, run),
    ...memoryRequestLog(state, run),
    ...memoryActivity(state, run),
    ...memoryAuthors(state, run),
    ...memoryAuthorTokens(state, run),
    ...memoryWebhooks(state, run),
    ...memoryWebhookEvents(state, run),
    ...memoryWebhookDeliveries(state, run),
    ping: () => run(() => undefined),
    close: () => {
      state.closed = true;
      return Promise.resolve();
    },
  };
}
