import { requireOperator } from './scope.js';
import type { AdminOperation, AdminOperations } from './operation.js';
import { ADMIN_OPERATIONS, type KeyAdmin } from './operations.js';
import type { AdminContext } from './scope.js';
import { type KeyAdminOptions, OPERATOR, type Principal } from './types.js';
import { checkedWebhooksPerAuthor } from '../webhooks/index.js';

/**
 * Key administration (docs/protocol.md#key-lifecycle, #administration) as plain operations on typed
 * inputs, one method per operation of the table (operations.ts), for one principal
 * (docs/protocol.md#authors: the declared scope, then scope.ts, decide what it reaches).
 * The admin HTTP API makes one per request, for the token's principal (routes.ts); the
 * `licence` CLI calls them as the operator on its configured store without HTTP.
 */
export function createKeyAdmin(options: KeyAdminOptions, principal?: Principal): KeyAdmin;
export function createKeyAdmin(
  options: KeyAdminOptions,
  principal: Principal,
  operations: AdminOperations,
): Readonly<Record<string, (...args: readonly unknown[]) => Promise<unknown>>>;
export function createKeyAdmin(
  options: KeyAdminOptions,
  principal: Principal = OPERATOR,
  operations: AdminOperations = ADMIN_OPERATIONS,
): unknown {
  const context = adminContext(options, principal);
  return Object.fromEntries(
    Object.entries(operations).map(([name, declared]) => [
      name,
      (...args: readonly unknown[]) => runOperation(declared, context, args),
    ]),
  );
}

/** What every operation is handed: the options, checked, and who asks. */
export function adminContext(options: KeyAdminOptions, principal: Principal): AdminContext {
  const { store, clock, random, logger, signer } = options;
  return {
    store,
    clock,
    random,
    logger,
    // docs/protocol.md#webhooks: LICENCE_WEBHOOK_ALLOW_PRIVATE, off unless set.
    webhookAllowPrivate: options.webhookAllowPrivate === true,
    // docs/protocol.md#endpoints: LICENCE_WEBHOOKS_PER_AUTHOR, 10 unless set.
    webhooksPerAuthor: checkedWebhooksPerAuthor(options.webhooksPerAuthor),
    principal,
    ...(signer === undefined ? {} : { signer }),
  };
}

/**
 * One call: the declared scope first (docs/protocol.md#authors: what only the operator may do is a
 * 403 OPERATOR_ONLY whatever is asked of it), then the operation, which reaches its resource.
 */
export function runOperation(
  declared: AdminOperation,
  context: AdminContext,
  args: readonly unknown[],
): Promise<unknown> {
  try {
    if (declared.scope.operator) requireOperator(context.principal, declared.scope.refused);
    return declared.run(context, ...args);
  } catch (error) {
    return Promise.reject(error);
  }
}
