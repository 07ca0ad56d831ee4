import { formatQuand } from '@licence/core';
import { fromStore } from './key-admin-keys.js';
import { type AdminContext, requireOperator } from './key-admin-scope.js';
import { twelveMonthsBefore } from './retention.js';

/**
 * docs/protocol.md#privacy: deletes the request-log entries logged more than twelve months ago,
 * and with them their client IPs. `erased` counts the entries deleted, each with its IP. The
 * operator's alone (docs/protocol.md#authors): it reaches every author's log.
 */
export async function purge(context: AdminContext): Promise<{ readonly erased: number }> {
  const { store, clock, logger } = context;
  requireOperator(context.principal, 'purge the request log');
  const before = twelveMonthsBefore(clock.now());
  const erased = await fromStore(() => store.purgeRequestLog(before));
  logger.info(
    { action: 'purge', erased, before: formatQuand(before) },
    'request log entries past retention deleted, with their client IPs',
  );
  return { erased };
}
