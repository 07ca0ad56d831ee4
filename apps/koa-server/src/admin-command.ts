import type { KeyAdmin } from '@licence/service';
import { assertNever } from './assert-never.js';
import type { AdminAction } from './cli-args.js';
import { StartupError } from './startup-error.js';

/**
 * A CLI admin command run through the service's own key administration (`createKeyAdmin`), the
 * very operations the admin HTTP API is a thin layer over (docs/protocol.md#administration): both
 * share every rule (the conflicts, the field checks, their messages) and cannot drift apart. The
 * arguments go in as typed values; an `AdminError` (invalid, not found, conflict, store
 * unavailable) propagates to the caller. The answer is the admin API's JSON body (for
 * `author revoke-token` and `webhook remove`, whose HTTP answer is an empty 204, what was removed).
 */
export function runAdminAction(admin: KeyAdmin, action: AdminAction, publicUrl?: string): Promise<unknown> {
  switch (action.name) {
    case 'product add':
      return admin.addProduct({
        id: action.id,
        author: action.author,
        name: action.productName,
        staging: action.staging,
      });
    case 'product staging':
      return admin.updateProduct(action.id, { staging: action.staging });
    case 'key issue':
      return admin.issueKey({ produit: action.produit, kind: action.kind, sites: action.sites, expire: action.expire });
    case 'key show':
      return admin.showKey(action.cle);
    case 'key regenerate':
      return admin.regenerateKey(action.cle);
    case 'key transfer':
      return admin.transferKey(action.cle, { from: action.from, to: action.to });
    case 'key revoke':
      return admin.revokeKey(action.cle, { reason: action.reason });
    case 'key buyer-link':
      return buyerLink(admin, action, publicUrl);
    case 'installations':
      return admin.installations(action.produit);
    case 'purge':
      return admin.purge();
    case 'author add':
      return admin.addAuthor({ id: action.id, name: action.authorName });
    case 'author token':
      return admin.createAuthorToken(action.id, { label: action.label });
    case 'author tokens':
      return admin.listAuthorTokens(action.id);
    case 'author revoke-token':
      return revokeAuthorToken(admin, action.id, action.tokenId);
    case 'webhook add':
      return admin.addWebhook({ url: action.url, events: action.events, author: action.author });
    case 'webhook list':
      return admin.listWebhooks();
    case 'webhook remove':
      return removeWebhook(admin, action.id);
    case 'webhook rotate':
      return admin.rotateWebhookSecret(action.id);
    case 'webhook deliveries':
      return admin.webhookDeliveries(action.id);
    case 'webhook retry':
      return admin.retryWebhookDelivery(action.id, action.deliveryId);
    default:
      return assertNever(action);
  }
}

/**
 * docs/protocol.md#buyer-links: the link is built on `--base`, else on LICENCE_PUBLIC_URL
 * (`publicUrl`); with neither, one line says so (the CLI has no request whose Host it could take).
 */
function buyerLink(
  admin: KeyAdmin,
  action: Extract<AdminAction, { readonly name: 'key buyer-link' }>,
  publicUrl: string | undefined,
): Promise<unknown> {
  const base = action.base ?? publicUrl;
  if (base === undefined) {
    return Promise.reject(
      new StartupError(
        'key buyer-link: no public URL to build the link on; set LICENCE_PUBLIC_URL (docs/protocol.md#buyer-links) or give --base <url>',
      ),
    );
  }
  return admin.buyerLink(action.cle, base, { ttl: action.ttl });
}

/** DELETE /admin/authors/:id/tokens/:tokenId answers 204 and no body; the CLI says what it revoked. */
async function revokeAuthorToken(
  admin: KeyAdmin,
  author: string,
  tokenId: string,
): Promise<{ readonly author: string; readonly id: string; readonly revoked: true }> {
  await admin.revokeAuthorToken(author, tokenId);
  return { author, id: tokenId, revoked: true };
}

/** DELETE /admin/webhooks/:id answers 204 and no body; the CLI says what it removed. */
async function removeWebhook(admin: KeyAdmin, id: string): Promise<{ readonly id: string; readonly removed: true }> {
  await admin.removeWebhook(id);
  return { id, removed: true };
}
