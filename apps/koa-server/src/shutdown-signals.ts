import type { Logger } from '@licence/service';

export interface ShutdownSignals {
  /** Resolves with the first SIGTERM or SIGINT. */
  readonly received: Promise<NodeJS.Signals>;
  /** Removes the handlers (after the close finished). */
  dispose(): void;
}

/**
 * Listens for SIGTERM and SIGINT (clean shutdown: stop accepting, finish what is in
 * flight, close the database). Installed BEFORE the server starts, so a signal that arrives
 * while it starts is not lost to Node's default action (an immediate kill with no exit code 0).
 * A second signal while closing is logged and otherwise ignored: the close has its own limit.
 */
export function listenForShutdown(logger: Logger): ShutdownSignals {
  let first: NodeJS.Signals | undefined;
  let resolveReceived: (signal: NodeJS.Signals) => void = () => undefined;
  const received = new Promise<NodeJS.Signals>((resolve) => {
    resolveReceived = resolve;
  });
  const onSignal = (signal: NodeJS.Signals): void => {
    if (first !== undefined) {
      logger.warn({ signal }, 'already shutting down');
      return;
    }
    first = signal;
    logger.info({ signal }, 'shutting down');
    resolveReceived(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return {
    received,
    dispose: () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    },
  };
}
