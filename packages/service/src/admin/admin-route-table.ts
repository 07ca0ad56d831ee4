import * as fields from './admin-fields.js';
import type { KeyAdmin } from './key-admin-types.js';
import { emptyResponse, jsonResponse } from '../http/index.js';
import type { ServiceResponse } from '../http/index.js';

/**
 * The admin API's routes (docs/protocol.md#administration, #authors, #activity, #webhooks): path, method, the
 * name the log shows, and the `KeyAdmin` call with its input read from the path, the query or the
 * JSON body. admin-routes.ts matches them and runs the checks that come before.
 */

export type AdminMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface AdminRequestParts {
  /** Path parameters, percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** The parsed JSON body (POST and PATCH only); undefined when none was sent. */
  readonly body: unknown;
  /** The raw query string, without `?`. */
  readonly query: string | undefined;
  /**
   * Where buyers reach the service (docs/protocol.md#buyer-links: LICENCE_PUBLIC_URL, else this
   * request's scheme and Host), without a trailing `/`; a 400 when neither says.
   */
  readonly publicBase: () => string;
}

export interface AdminRoute {
  /** Path segments after `/admin`; `:name` captures one. */
  readonly pattern: readonly string[];
  readonly method: AdminMethod;
  /** What the log shows instead of the path (which may hold a key). */
  readonly name: string;
  readonly run: (admin: KeyAdmin, parts: AdminRequestParts) => Promise<ServiceResponse>;
}

const route = (method: AdminMethod, path: string, run: AdminRoute['run']): AdminRoute => ({
  pattern: path.split('/').slice(2),
  method,
  name: `${method} ${path}`,
  run,
});

const param = (parts: AdminRequestParts, name: string): string => parts.params[name] ?? '';

/** docs/protocol.md#webhooks: a shop's endpoints, their secret and their delivery log. */
const WEBHOOK_ROUTES: readonly AdminRoute[] = [
  route('GET', '/admin/webhooks', async (admin) => jsonResponse(200, await admin.listWebhooks())),
  route('POST', '/admin/webhooks', async (admin, { body }) =>
    jsonResponse(201, await admin.addWebhook(fields.webhookInput(body))),
  ),
  route('DELETE', '/admin/webhooks/:id', async (admin, parts) => {
    await admin.removeWebhook(param(parts, 'id'));
    return emptyResponse(204);
  }),
  route('POST', '/admin/webhooks/:id/secret', async (admin, parts) =>
    jsonResponse(200, await admin.rotateWebhookSecret(param(parts, 'id'))),
  ),
  route('GET', '/admin/webhooks/:id/deliveries', async (admin, parts) =>
    jsonResponse(200, await admin.webhookDeliveries(param(parts, 'id'))),
  ),
  // 202: the delivery is queued again; the deliverer sends it on its next round.
  route('POST', '/admin/webhooks/:id/deliveries/:deliveryId/retry', async (admin, parts) =>
    jsonResponse(202, await admin.retryWebhookDelivery(param(parts, 'id'), param(parts, 'deliveryId'))),
  ),
];

export const ADMIN_ROUTES: readonly AdminRoute[] = [
  route('GET', '/admin/me', async (admin) => jsonResponse(200, await admin.me())),
  route('GET', '/admin/products', async (admin) => jsonResponse(200, await admin.listProducts())),
  route('POST', '/admin/products', async (admin, { body }) =>
    jsonResponse(201, await admin.addProduct(fields.productInput(body))),
  ),
  // docs/protocol.md#staging-hosts: an author renames a product or sets its staging patterns.
  route('PATCH', '/admin/products/:id', async (admin, parts) =>
    jsonResponse(200, await admin.updateProduct(param(parts, 'id'), fields.productChangeInput(parts.body))),
  ),
  route('POST', '/admin/keys', async (admin, { body }) =>
    jsonResponse(201, await admin.issueKey(fields.issueKeyInput(body))),
  ),
  route('GET', '/admin/keys/:cle', async (admin, parts) => jsonResponse(200, await admin.showKey(param(parts, 'cle')))),
  route('POST', '/admin/keys/:cle/regenerate', async (admin, parts) =>
    jsonResponse(201, await admin.regenerateKey(param(parts, 'cle'))),
  ),
  route('POST', '/admin/keys/:cle/transfer', async (admin, parts) =>
    jsonResponse(201, await admin.transferKey(param(parts, 'cle'), fields.transferInput(parts.body))),
  ),
  route('POST', '/admin/keys/:cle/revoke', async (admin, parts) =>
    jsonResponse(200, await admin.revokeKey(param(parts, 'cle'), fields.revokeInput(parts.body))),
  ),
  // docs/protocol.md#buyer-links: a link for the key's buyer, built on the public URL.
  route('POST', '/admin/keys/:cle/buyer-link', async (admin, parts) => {
    const input = fields.buyerLinkInput(parts.body);
    return jsonResponse(201, await admin.buyerLink(param(parts, 'cle'), parts.publicBase(), input));
  }),
  route('GET', '/admin/products/:id/installations', async (admin, parts) =>
    jsonResponse(200, await admin.installations(param(parts, 'id'))),
  ),
  route('GET', '/admin/products/:id/activity', async (admin, parts) =>
    jsonResponse(200, await admin.activity(param(parts, 'id'), fields.activityDays(parts.query))),
  ),
  route('POST', '/admin/purge', async (admin) => jsonResponse(200, await admin.purge())),
  route('GET', '/admin/authors', async (admin) => jsonResponse(200, await admin.listAuthors())),
  route('POST', '/admin/authors', async (admin, { body }) =>
    jsonResponse(201, await admin.addAuthor(fields.authorInput(body))),
  ),
  route('GET', '/admin/authors/:id/tokens', async (admin, parts) =>
    jsonResponse(200, await admin.listAuthorTokens(param(parts, 'id'))),
  ),
  route('POST', '/admin/authors/:id/tokens', async (admin, parts) =>
    jsonResponse(201, await admin.createAuthorToken(param(parts, 'id'), fields.tokenInput(parts.body))),
  ),
  route('DELETE', '/admin/authors/:id/tokens/:tokenId', async (admin, parts) => {
    await admin.revokeAuthorToken(param(parts, 'id'), param(parts, 'tokenId'));
    return emptyResponse(204);
  }),
  ...WEBHOOK_ROUTES,
];
