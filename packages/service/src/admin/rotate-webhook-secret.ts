import { formatQuand } from '@licence/core';
import { adminError } from './errors.js';
import { DAY_SECONDS } from '../ports/index.js';
import { callOrStoreUnavailable } from './keys.js';
import { type AdminContext, reachWebhook } from './scope.js';
import type { RotatedSecretView } from './types.js';
import { nowSeconds } from '../http/index.js';
import { newWebhookSecret } from '../webhooks/index.js';

/**
 * How long the previous secrets keep signing after a rotation (docs/protocol.md#webhooks): a day,
 * for the shop to deploy the new one; meanwhile every delivery carries one signature per secret,
 * and a receiver holding either accepts it.
 */
export const WEBHOOK_ROTATION_SECONDS = DAY_SECONDS;

/** `POST /admin/webhooks/:id/secret`: a new secret, shown this once; the log names the endpoint only. */
export async function rotateWebhookSecret(context: AdminContext, id: string): Promise<RotatedSecretView> {
  const endpoint = await reachWebhook(context, id);
  const secret = newWebhookSecret(context.random);
  const previousUntil = nowSeconds(context.clock) + WEBHOOK_ROTATION_SECONDS;
  const rotated = await callOrStoreUnavailable(() =>
    context.store.rotateWebhookSecret(endpoint.id, secret, previousUntil),
  );
  if (!rotated) throw adminError('WEBHOOK_NOT_FOUND', endpoint.id);
  const until = formatQuand(previousUntil);
  context.logger.info(
    { action: 'webhook.rotate', webhook: endpoint.id, previousUntil: until },
    'webhook secret rotated',
  );
  return { id: endpoint.id, secret, previousUntil: until };
}
