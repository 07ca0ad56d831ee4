import { activity } from './key-admin-activity.js';
import { addAuthor } from './key-admin-add-author.js';
import { addWebhook } from './key-admin-add-webhook.js';
import { buyerLink } from './key-admin-buyer-link.js';
import { createAuthorToken } from './key-admin-create-token.js';
import { issueKey } from './key-admin-issue.js';
import { listAuthors } from './key-admin-list-authors.js';
import { listProducts } from './key-admin-list-products.js';
import { listAuthorTokens } from './key-admin-list-tokens.js';
import { listWebhooks } from './key-admin-list-webhooks.js';
import { me } from './key-admin-me.js';
import { addProduct, installations, updateProduct } from './key-admin-products.js';
import { purge } from './key-admin-purge.js';
import { removeWebhook } from './key-admin-remove-webhook.js';
import { regenerateKey, transferKey } from './key-admin-replace.js';
import { revokeKey } from './key-admin-revoke.js';
import { revokeAuthorToken } from './key-admin-revoke-token.js';
import { rotateWebhookSecret } from './key-admin-rotate-webhook-secret.js';
import type { AdminContext } from './key-admin-scope.js';
import { showKey } from './key-admin-show.js';
import { type KeyAdmin, type KeyAdminOptions, OPERATOR, type Principal } from './key-admin-types.js';
import { retryWebhookDelivery, webhookDeliveries } from './key-admin-webhook-deliveries.js';
import { checkedWebhooksPerAuthor } from '../webhooks/index.js';

/**
 * Key administration (docs/protocol.md#key-lifecycle, #administration) as plain operations on typed
 * inputs (key-admin-types.ts), one file per operation or concern, for one principal
 * (docs/protocol.md#authors: key-admin-scope.ts decides what it reaches). The admin HTTP API makes
 * one per request, for the token's principal, reads its JSON bodies into these inputs and maps
 * their `AdminError`s to problems (admin-fields.ts, admin-routes.ts); the `licence` CLI calls them
 * as the operator on its configured store without HTTP.
 */
export function createKeyAdmin(options: KeyAdminOptions, principal: Principal = OPERATOR): KeyAdmin {
  const { store, clock, random, logger, signer } = options;
  // docs/protocol.md#webhooks: LICENCE_WEBHOOK_ALLOW_PRIVATE, off unless set.
  const webhookAllowPrivate = options.webhookAllowPrivate === true;
  const context: AdminContext = {
    store,
    clock,
    random,
    logger,
    webhookAllowPrivate,
    // docs/protocol.md#endpoints: LICENCE_WEBHOOKS_PER_AUTHOR, 10 unless set.
    webhooksPerAuthor: checkedWebhooksPerAuthor(options.webhooksPerAuthor),
    principal,
    ...(signer === undefined ? {} : { signer }),
  };
  return {
    addProduct: (input) => addProduct(context, input),
    updateProduct: (productId, input) => updateProduct(context, productId, input),
    issueKey: (input) => issueKey(context, input),
    showKey: (cle) => showKey(context, cle),
    regenerateKey: (cle) => regenerateKey(context, cle),
    transferKey: (cle, input = {}) => transferKey(context, cle, input),
    revokeKey: (cle, input = {}) => revokeKey(context, cle, input),
    buyerLink: (cle, base, input = {}) => buyerLink(context, cle, base, input),
    installations: (productId) => installations(context, productId),
    purge: () => purge(context),
    me: () => me(context),
    listProducts: () => listProducts(context),
    activity: (productId, days) => activity(context, productId, days),
    addAuthor: (input) => addAuthor(context, input),
    listAuthors: () => listAuthors(context),
    createAuthorToken: (authorId, input = {}) => createAuthorToken(context, authorId, input),
    listAuthorTokens: (authorId) => listAuthorTokens(context, authorId),
    revokeAuthorToken: (authorId, tokenId) => revokeAuthorToken(context, authorId, tokenId),
    addWebhook: (input) => addWebhook(context, input),
    listWebhooks: () => listWebhooks(context),
    removeWebhook: (id) => removeWebhook(context, id),
    rotateWebhookSecret: (id) => rotateWebhookSecret(context, id),
    webhookDeliveries: (id) => webhookDeliveries(context, id),
    retryWebhookDelivery: (id, deliveryId) => retryWebhookDelivery(context, id, deliveryId),
  };
}
