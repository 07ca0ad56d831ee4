import type { MemoryLogRow, MemoryRun, MemoryState } from './memory-state.js';
import type { Store } from './ports.js';

/**
 * The memory store's request log and its purge (docs/protocol.md#privacy): time, key, host and IP;
 * the purge deletes the entries logged before its cut-off, IP and all.
 */
export function memoryRequestLog(
  state: MemoryState,
  run: MemoryRun,
): Pick<Store, 'logRequest' | 'purgeRequestLog'> & { readonly requestLog: () => readonly Readonly<MemoryLogRow>[] } {
  return {
    logRequest: (entry) =>
      run(() => {
        state.log.push({ at: entry.at, keyId: entry.keyId, host: entry.host, ip: entry.ip });
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
        return deleted;
      }),

    requestLog: () => state.log.map((entry) => Object.freeze({ ...entry })),
  };
}
