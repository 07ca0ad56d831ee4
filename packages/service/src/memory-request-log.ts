import type { MemoryLogRow, MemoryRun, MemoryState } from './memory-state.js';
import type { Store } from './ports.js';

/**
 * The memory store's request log and its purge (docs/protocol.md#privacy): time, key, host and IP;
 * the purge erases the IPs logged before its cut-off and keeps the rest of each entry.
 */
export function memoryRequestLog(
  state: MemoryState,
  run: MemoryRun,
): Pick<Store, 'logRequest' | 'purgeIps'> & { readonly requestLog: () => readonly Readonly<MemoryLogRow>[] } {
  return {
    logRequest: (entry) =>
      run(() => {
        state.log.push({ at: entry.at, keyId: entry.keyId, host: entry.host, ip: entry.ip });
      }),

    purgeIps: (before) =>
      run(() => {
        let erased = 0;
        for (const entry of state.log) {
          if (entry.at < before && entry.ip !== null) {
            entry.ip = null;
            erased += 1;
          }
        }
        return erased;
      }),

    requestLog: () => state.log.map((entry) => Object.freeze({ ...entry })),
  };
}
