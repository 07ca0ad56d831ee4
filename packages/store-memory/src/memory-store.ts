import { memoryActivity } from './activity.js';
import { memoryAuthorTokens } from './author-tokens.js';
import { memoryAuthors } from './authors.js';
import { memoryDomains } from './domains.js';
import { memoryKeyReads } from './key-reads.js';
import { memoryKeyWrites } from './key-writes.js';
import { memoryProducts } from './products.js';
import { memoryRequestLog } from './request-log.js';
import { createMemoryState, memoryRunner } from './state.js';
import { memoryWebhookDeliveries } from './webhook-deliveries.js';
import { memoryWebhookEvents } from './webhook-events.js';
import { memoryWebhooks } from './webhooks.js';
import type { MemoryLogRow } from './state.js';
import type { Store } from '@licence/service';

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
