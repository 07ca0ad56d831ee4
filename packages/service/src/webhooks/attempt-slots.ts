/**
 * The bound on a deliverer's attempts in flight (docs/protocol.md#delivery, `concurrency`,
 * LICENCE_WEBHOOK_CONCURRENCY). Each attempt holds a socket for up to its 15 s timeout, so without
 * a bound, endpoints whose receivers accept and never answer make the process hold one descriptor
 * each, until the server can accept no connection at all. A round takes its slots BEFORE it claims
 * (and gives back those its claim did not fill), so two rounds claiming at once, or `runOnce` beside
 * the loop, never start more attempts than the bound together.
 */
export interface AttemptSlots {
  /** Takes up to `wanted` of the free slots at once; how many it took (0 when every slot is busy). */
  take(wanted: number): number;
  /** Gives `count` slots back. */
  give(count: number): void;
  /** Slots taken now. */
  inUse(): number;
}

export function createAttemptSlots(limit: number): AttemptSlots {
  let used = 0;
  return {
    take: (wanted) => {
      const taken = Math.max(0, Math.min(wanted, limit - used));
      used += taken;
      return taken;
    },
    give: (count) => {
      // More given than taken would be a bug of the deliverer; the bound must never grow from it.
      if (count > used) throw new Error(`webhook slots: ${count} given back, only ${used} taken`);
      used -= count;
    },
    inUse: () => used,
  };
}
