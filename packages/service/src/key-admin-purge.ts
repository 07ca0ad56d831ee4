import { formatQuand } from '@licence/core';
import { fromStore } from './key-admin-keys.js';
import type { KeyAdminOptions } from './key-admin-types.js';
import { twelveMonthsBefore } from './retention.js';

/** docs/protocol.md#privacy: erases the client IPs logged more than twelve months ago. */
export async function purge(options: KeyAdminOptions): Promise<{ readonly erased: number }> {
  const { store, clock, logger } = options;
  const before = twelveMonthsBefore(clock.now());
  const erased = await fromStore(() => store.purgeIps(before));
  logger.info({ action: 'purge', erased, before: formatQuand(before) }, 'client IPs past retention erased');
  return { erased };
}
