import { ApiError, asProblem, retryAfterSeconds } from './api-error.js';
import type {
  ActivityView,
  AuthorView,
  BuyerLinkBody,
  BuyerLinkView,
  InstallationsView,
  IssuedKey,
  IssueKeyBody,
  KeyView,
  MeView,
  NewTokenView,
  NewWebhookView,
  ProductChange,
  ProductInput,
  ProductSummary,
  ProductView,
  RevokedKey,
  RotatedSecretView,
  TokenView,
  TransferBody,
  WebhookBody,
  WebhookDeliveriesView,
  WebhookDeliveryView,
  WebhookView,
} from './api-types.js';

export interface ApiOptions {
  /** The admin API's absolute base, ending in `/admin/`. */
  readonly base: string;
  /** The operator's or an author's token: sent in `Authorization` only (docs/protocol.md#console). */
  readonly token: string;
  /** The real fetch by default; a test hands Node's own. */
  readonly fetch?: typeof fetch;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * One path segment, percent-encoded. A segment of dots alone would be resolved away by the URL
 * parser (`keys/..` is `admin/`), so it is refused here: no key, product or id is made of dots.
 */
export function segment(value: string): string {
  if (/^\.*$/.test(value)) throw new ApiError(404);
  return encodeURIComponent(value);
}

/** A request to the admin API: JSON in and out, the token in `Authorization: Bearer`, nothing else. */
async function call<T>(options: ApiOptions, method: Method, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${options.token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const init: RequestInit = {
    method,
    headers,
    // No cookie is ever sent (no CSRF surface), nothing cached, no Referer, and no redirect followed.
    credentials: 'omit',
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
    redirect: 'error',
  };
  if (body !== undefined) init.body = JSON.stringify(body);
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(new URL(path, options.base), init);
  } catch {
    throw new ApiError(0);
  }
  return read<T>(response);
}

/** The body as JSON, or undefined when it is none (an empty body is null: a 204). */
function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function read<T>(response: Response): Promise<T> {
  const body = parseJson(await response.text().catch(() => ''));
  // A success that is not JSON came from something between us and the service (a proxy's page).
  if (response.ok && body === undefined) throw new ApiError(502);
  if (response.ok) return body as T;
  throw new ApiError(response.status, asProblem(body), retryAfterSeconds(response.headers.get('Retry-After')));
}

/**
 * The admin API's calls, each one route of docs/protocol.md#admin-http-api, named as its operation
 * in @licence/service's table (ADMIN_OPERATIONS); api-operations.test.ts checks the names, methods
 * and paths against the table, which the bundle does not import.
 */
export function createApi(options: ApiOptions) {
  const get = <T>(path: string) => call<T>(options, 'GET', path);
  const post = <T>(path: string, body: unknown = {}) => call<T>(options, 'POST', path, body);
  const key = (cle: string) => `keys/${segment(cle)}`;
  const tokens = (author: string) => `authors/${segment(author)}/tokens`;
  const webhook = (id: string) => `webhooks/${segment(id)}`;
  return {
    me: () => get<MeView>('me'),
    listProducts: () => get<{ products: ProductSummary[] }>('products'),
    addProduct: (input: ProductInput) => post<ProductView>('products', input),
    updateProduct: (id: string, change: ProductChange) =>
      call<ProductView>(options, 'PATCH', `products/${segment(id)}`, change),
    installations: (id: string) => get<InstallationsView>(`products/${segment(id)}/installations`),
    activity: (id: string, days: number) => get<ActivityView>(`products/${segment(id)}/activity?days=${days}`),
    issueKey: (input: IssueKeyBody) => post<IssuedKey>('keys', input),
    showKey: (cle: string) => get<KeyView>(key(cle)),
    regenerateKey: (cle: string) => post<{ cle: string }>(`${key(cle)}/regenerate`),
    transferKey: (cle: string, input: TransferBody) => post<{ cle: string }>(`${key(cle)}/transfer`, input),
    revokeKey: (cle: string, reason?: string) => post<RevokedKey>(`${key(cle)}/revoke`, reason ? { reason } : {}),
    buyerLink: (cle: string, input: BuyerLinkBody) => post<BuyerLinkView>(`${key(cle)}/buyer-link`, input),
    listAuthors: () => get<{ authors: AuthorView[] }>('authors'),
    addAuthor: (input: { id: string; name: string }) => post<AuthorView>('authors', input),
    listAuthorTokens: (author: string) => get<{ tokens: TokenView[] }>(tokens(author)),
    createAuthorToken: (author: string, label?: string) => post<NewTokenView>(tokens(author), label ? { label } : {}),
    revokeAuthorToken: (author: string, id: string) =>
      call<null>(options, 'DELETE', `${tokens(author)}/${segment(id)}`),
    purge: () => post<{ erased: number }>('purge'),
    listWebhooks: () => get<{ webhooks: WebhookView[] }>('webhooks'),
    addWebhook: (input: WebhookBody) => post<NewWebhookView>('webhooks', input),
    removeWebhook: (id: string) => call<null>(options, 'DELETE', webhook(id)),
    rotateWebhookSecret: (id: string) => post<RotatedSecretView>(`${webhook(id)}/secret`),
    webhookDeliveries: (id: string) => get<WebhookDeliveriesView>(`${webhook(id)}/deliveries`),
    retryWebhookDelivery: (id: string, delivery: string) =>
      post<WebhookDeliveryView>(`${webhook(id)}/deliveries/${segment(delivery)}/retry`),
  };
}

export type Api = ReturnType<typeof createApi>;
