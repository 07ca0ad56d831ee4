import { describeError } from '@licence/core';
import type { Logger, Service } from '@licence/service';

/**
 * docs/protocol.md#privacy: the server deletes the request-log entries past retention (and so
 * their IP addresses) by itself, daily.
 */
export const PURGE_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * Runs `service.purge()` once now and then every `intervalMs`. The timer is `unref`'d: it never
 * keeps a stopping process alive. A purge that ran is logged by the service, in one line with its
 * counts (`action: "purge"`); the timer adds none of its own, so a start announces the purge once.
 * A failed purge is logged and retried at the next tick; it never stops the server.
 */
export function startPurgeTimer(
  service: Pick<Service, 'purge'>,
  logger: Logger,
  intervalMs: number = PURGE_INTERVAL_MS,
): { stop(): void; readonly first: Promise<void> } {
  const run = async (): Promise<void> => {
    try {
      await service.purge();
    } catch (error) {
      logger.error({ err: describeError(error) }, 'purge failed');
    }
  };
  const first = run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), first };
}
