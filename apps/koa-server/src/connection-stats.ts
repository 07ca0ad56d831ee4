import type { Logger } from '@licence/service';

/**
 * Counts of what happens to connections that is not a fault of ours: clients that left early,
 * connections refused by a cap, connections closed for silence (docs/protocol.md#limits). Each
 * event alone is not worth a log line (anyone could flood the log with them); their counts are,
 * in one `connection stats` line at most once a minute when a count moved, and once more at
 * shutdown. The line holds counts only, never an address (docs/protocol.md#privacy).
 */

export const STATS_INTERVAL_MS = 60_000;

export const CONNECTION_EVENTS = ['clientAborts', 'refusedPerAddress', 'refusedTotal', 'timedOut'] as const;
export type ConnectionEvent = (typeof CONNECTION_EVENTS)[number];
/** The events counted by connection rather than one by one. */
export type RefusalEvent = Exclude<ConnectionEvent, 'clientAborts' | 'timedOut'>;

export interface ConnectionStats {
  /** One more connection refused by this cap. */
  count(event: RefusalEvent): void;
  /**
   * A client left before its answer: counted once per connection, however many places notice it
   * (the request stream, Koa, the HTTP parser), and not at all on a connection already counted as
   * timed out (closing it is what made its request fail).
   */
  clientAborted(socket: object): void;
  /** A connection closed by the server for a request that did not arrive in time. */
  timedOut(socket: object): void;
  /** Logs the counts since the last line, if any moved. */
  flush(): void;
  /** Stops the timer and logs what is left. */
  stop(): void;
}

export function createConnectionStats(logger: Logger, intervalMs: number = STATS_INTERVAL_MS): ConnectionStats {
  const counts = zeroCounts();
  // Sockets already counted as aborted or timed out: each connection counts once.
  const counted = new WeakSet<object>();
  const once = (event: ConnectionEvent, socket: object): void => {
    if (counted.has(socket)) return;
    counted.add(socket);
    counts[event] += 1;
  };
  const flush = (): void => {
    if (CONNECTION_EVENTS.every((event) => counts[event] === 0)) return;
    logger.info({ ...counts }, 'connection stats');
    for (const event of CONNECTION_EVENTS) counts[event] = 0;
  };
  const timer = setInterval(flush, intervalMs);
  // The counts must never keep a stopping process alive.
  timer.unref();
  return {
    count: (event) => {
      counts[event] += 1;
    },
    clientAborted: (socket) => once('clientAborts', socket),
    timedOut: (socket) => once('timedOut', socket),
    flush,
    stop: () => {
      clearInterval(timer);
      flush();
    },
  };
}

function zeroCounts(): Record<ConnectionEvent, number> {
  return { clientAborts: 0, refusedPerAddress: 0, refusedTotal: 0, timedOut: 0 };
}
