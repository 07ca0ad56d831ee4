/**
 * Every way key administration refuses (docs/protocol.md#key-lifecycle, #administration), in one
 * table: a stable code, its message and its class. The operations throw these; only the admin HTTP
 * routes turn a class into a status and a problem type (routes.ts), and the CLI prints the
 * message. A message never holds a licence key (a key appears only as its four-character hint,
 * docs/protocol.md#privacy) nor a token (docs/protocol.md#authors).
 */

/**
 * The classes of refusal: bad input, not the principal's to ask (docs/protocol.md#authors), nothing
 * by that name, a state that forbids it, the store down.
 */
export type AdminErrorClass = 'invalid' | 'forbidden' | 'not-found' | 'conflict' | 'unavailable';

/** The parameters of each code's message. */
interface AdminErrorParameters {
  /** `problem` says what is wrong with `field`, e.g. "is required". */
  readonly INVALID_FIELD: [field: string, problem: string];
  readonly PRODUCT_NOT_FOUND: [productId: string];
  readonly KEY_NOT_FOUND: [hint: string];
  readonly PRODUCT_EXISTS: [productId: string];
  readonly DEV_KEY_EXISTS: [productId: string];
  /** `state`: why it is dead (`revocation`, `expiree`...), or that it changed meanwhile. */
  readonly KEY_NOT_ALIVE: [hint: string, state: string];
  readonly DOMAIN_NOT_BOUND: [hint: string, domain: string];
  readonly TOO_MANY_DOMAINS: [hint: string, sites: number, to: string, count: number];
  readonly STORE_UNAVAILABLE: [];
  /** `operation` says what was asked, e.g. "add authors". */
  readonly OPERATOR_ONLY: [operation: string];
  /** An author token creating a product of another author; `own` is the token's author. */
  readonly OTHER_AUTHOR: [own: string];
  readonly AUTHOR_EXISTS: [id: string];
  readonly AUTHOR_NOT_FOUND: [id: string];
  /** The token id is not repeated: a caller may have pasted a token where its id belongs. */
  readonly TOKEN_NOT_FOUND: [author: string];
  /** An author token naming another author for a webhook; `own` is the token's author. */
  readonly OTHER_AUTHOR_WEBHOOK: [own: string];
  /** `id` is null when what was given does not look like an endpoint id (it is then not repeated). */
  readonly WEBHOOK_NOT_FOUND: [id: string | null];
  /** `delivery` is null when what was given does not look like a delivery id. */
  readonly DELIVERY_NOT_FOUND: [webhook: string, delivery: string | null];
  /** The author already has `limit` endpoints (docs/protocol.md#endpoints, LICENCE_WEBHOOKS_PER_AUTHOR). */
  readonly TOO_MANY_WEBHOOKS: [author: string, limit: number];
}

export type AdminErrorCode = keyof AdminErrorParameters;

const ADMIN_ERRORS: {
  readonly [C in AdminErrorCode]: {
    readonly class: AdminErrorClass;
    readonly message: (...parameters: AdminErrorParameters[C]) => string;
  };
} = {
  INVALID_FIELD: { class: 'invalid', message: (field, problem) => `${field}: ${problem}` },
  PRODUCT_NOT_FOUND: { class: 'not-found', message: (productId) => `no product ${productId}` },
  KEY_NOT_FOUND: { class: 'not-found', message: (hint) => `no key ending in ${hint}` },
  // docs/protocol.md#authors: product ids are one namespace for every author, and not secret (they
  // ship in each product's code); the refusal says the id is taken, never whose it is.
  PRODUCT_EXISTS: {
    class: 'conflict',
    message: (productId) => `product id ${productId} is taken; product ids are one namespace for the whole service`,
  },
  DEV_KEY_EXISTS: {
    class: 'conflict',
    message: (productId) => `product ${productId} already has a live dev key; regenerate it instead`,
  },
  KEY_NOT_ALIVE: { class: 'conflict', message: (hint, state) => `key ${hint} is no longer alive (${state})` },
  DOMAIN_NOT_BOUND: { class: 'conflict', message: (hint, domain) => `key ${hint} is not bound to ${domain}` },
  TOO_MANY_DOMAINS: {
    class: 'conflict',
    message: (hint, sites, to, count) => `key ${hint} allows ${sites} domain(s); ${to} would make ${count}`,
  },
  STORE_UNAVAILABLE: { class: 'unavailable', message: () => 'the key store is unavailable; try again later' },
  OPERATOR_ONLY: { class: 'forbidden', message: (operation) => `only the operator's token may ${operation}` },
  OTHER_AUTHOR: {
    class: 'forbidden',
    message: (own) => `author: this token creates products of author ${own} only`,
  },
  AUTHOR_EXISTS: { class: 'conflict', message: (id) => `author ${id} already exists` },
  AUTHOR_NOT_FOUND: { class: 'not-found', message: (id) => `no author ${id}` },
  TOKEN_NOT_FOUND: { class: 'not-found', message: (author) => `author ${author} has no such token` },
  OTHER_AUTHOR_WEBHOOK: {
    class: 'forbidden',
    message: (own) => `author: this token manages webhooks of author ${own} only`,
  },
  WEBHOOK_NOT_FOUND: { class: 'not-found', message: (id) => (id === null ? 'no such webhook' : `no webhook ${id}`) },
  DELIVERY_NOT_FOUND: {
    class: 'not-found',
    message: (webhook, delivery) =>
      delivery === null ? `webhook ${webhook} has no such delivery` : `webhook ${webhook} has no delivery ${delivery}`,
  },
  TOO_MANY_WEBHOOKS: {
    class: 'conflict',
    message: (author, limit) =>
      `author ${author} already has ${limit} webhook endpoint(s), the most allowed (LICENCE_WEBHOOKS_PER_AUTHOR=${limit}); remove one first`,
  },
};

/** A refusal of key administration. `cause` keeps an underlying fault (the store's) for the log. */
export class AdminError extends Error {
  override readonly name = 'AdminError';

  constructor(
    readonly code: AdminErrorCode,
    readonly errorClass: AdminErrorClass,
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** The error of `code`, its message built from `parameters`. */
export function adminError<C extends AdminErrorCode>(code: C, ...parameters: AdminErrorParameters[C]): AdminError {
  const entry = ADMIN_ERRORS[code];
  return new AdminError(code, entry.class, entry.message(...parameters));
}

/** The store failed (docs/protocol.md#errors: a fault, never a refusal of the request itself). */
export function storeUnavailable(cause: unknown): AdminError {
  const entry = ADMIN_ERRORS.STORE_UNAVAILABLE;
  return new AdminError('STORE_UNAVAILABLE', entry.class, entry.message(), { cause });
}

/** True for an `AdminError`. */
export function isAdminError(error: unknown): error is AdminError {
  return error instanceof AdminError;
}
