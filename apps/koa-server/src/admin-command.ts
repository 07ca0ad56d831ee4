import type { KeyAdmin } from '@licence/service';
import type { AdminAction } from './cli-args.js';

/**
 * A CLI admin command run through the service's own key administration (`createKeyAdmin`), the
 * very operations the admin HTTP API is a thin layer over (docs/protocol.md#administration): both
 * share every rule (the 409s, the field checks, their messages) and cannot drift apart. The
 * arguments go in as the HTTP API's JSON body would. An HttpError (400, 404, 409, 503) propagates
 * to the caller.
 */
export function runAdminAction(admin: KeyAdmin, action: AdminAction): Promise<unknown> {
  switch (action.name) {
    case 'product add':
      return admin.addProduct({ id: action.id, author: action.author, name: action.productName });
    case 'key issue':
      return admin.issueKey({
        produit: action.produit,
        kind: action.kind,
        ...(action.sites === undefined ? {} : { sites: action.sites }),
        ...(action.expire === undefined ? {} : { expire: action.expire }),
      });
    case 'key show':
      return admin.showKey(action.cle);
    case 'key regenerate':
      return admin.regenerateKey(action.cle);
    case 'key transfer':
      return admin.transferKey(action.cle, {
        ...(action.from === undefined ? {} : { from: action.from }),
        ...(action.to === undefined ? {} : { to: action.to }),
      });
    case 'key revoke':
      return admin.revokeKey(action.cle, action.reason === undefined ? {} : { reason: action.reason });
    case 'installations':
      return admin.installations(action.produit);
    case 'purge':
      return admin.purge();
  }
}
