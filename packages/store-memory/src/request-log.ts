import { utcDay } from '@licence/service';
import { countVerdict, purgeActivity } from './activity.js';
import type { MemoryLogRow, MemoryRun, MemoryState } from './state.js';
import type { Store } from '@licence/service';

/**
 * The memory store's request log and its purge (docs/protocol.md#privacy): time, key, host, IP and
 * the verdict's outcome, each line counted in its product's activity (docs/protocol.md#activity);
 * the purge deletes the entries logged before its cut-off, IP and all, and the counts of the days
 * that ended before it.
 */
export function memoryRequestLog(
  state: MemoryState,
  run: MemoryRun,
): Pick<Store, 'logRequest' | 'purgeRequestLog'> & { readonly requestLog: () => readonly Readonly<MemoryLogRow>[] } {
  return {
    logRequest: (entry) =>
      run(() => {
        state.log.push({ at: entry.at, keyId: entry.keyId, host: entry.host, ip: entry.ip, outcome: entry.outcome });
        countVerdict(state, entry);
      }),

    purgeRequestLog: (before) =>
      run(() => {
        // Compacts in place: the kept entries move to the front, in their order.
        let kept = 0;
        for (const entry of state.log) {
          if (entry.at >= before) {
            state.log[kept] = entry;
            kept += 1;
          }
        }
        const deleted = state.log.length - kept;
        state.log.length = kept;
        purgeActivity(state, utcDay(before));
        return deleted;
      }),

    requestLog: () => state.log.map((entry) => Object.freeze({ ...entry })),
  };
}
