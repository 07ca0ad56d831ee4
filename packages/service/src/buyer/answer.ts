import { BUYER_PAGE_HEADERS, renderBuyerPage } from './page.js';
import type { BuyerEndReason, BuyerLanguage, BuyerPagePlace, BuyerView } from './page-views.js';
import type { HttpError, ProblemKind } from '../http/index.js';
import { errorResponse, type Headers, jsonResponse, problemResponse } from '../http/index.js';
import type { ServiceResponse } from '../http/index.js';

/**
 * The answers of the buyer's routes (docs/protocol.md#buyer-links): an HTML page (page.ts) to a
 * browser, or JSON to a caller that posted JSON. Every one carries BUYER_PAGE_HEADERS (the strict
 * policy, `no-store`, a Referrer-Policy that never sends the token's path elsewhere); a page also
 * `Vary: Accept-Language`, its language being the request's.
 */

/** How a request is answered: its format, its language, and where the page sits (its relative links). */
export interface BuyerReply {
  readonly format: 'html' | 'json';
  readonly lang: BuyerLanguage;
  readonly place: BuyerPagePlace;
  /** HEAD: the headers alone. */
  readonly head: boolean;
}

/** Each end page's status, and its problem when JSON was asked. */
const ENDS: Readonly<
  Record<BuyerEndReason, { readonly status: number; readonly kind: ProblemKind; readonly detail: string }>
> = {
  invalid: { status: 404, kind: 'not-found', detail: 'no such buyer link' },
  expired: { status: 410, kind: 'gone', detail: 'this buyer link has expired; ask the shop for a new one' },
  'key-ended': { status: 410, kind: 'gone', detail: 'this key is no longer active: its buyer link ended with it' },
  limit: {
    status: 429,
    kind: 'rate-limited',
    detail: 'no buyer transfer is left for this key in the last 30 days; contact the author',
  },
  origin: { status: 403, kind: 'forbidden', detail: "Origin: expected the buyer page's own origin" },
  'too-many-requests': {
    status: 429,
    kind: 'rate-limited',
    detail: 'too many requests to the buyer pages from this address; retry after Retry-After seconds',
  },
};

/** A page (`status`, `view`) in the reply's language. */
export function pageAnswer(status: number, view: BuyerView, reply: BuyerReply, extra: Headers = {}): ServiceResponse {
  return {
    status,
    headers: { ...BUYER_PAGE_HEADERS, 'Content-Type': 'text/html; charset=utf-8', Vary: 'Accept-Language', ...extra },
    body: reply.head ? '' : renderBuyerPage(view, reply.lang),
  };
}

/**
 * An end page, or its problem; `authorName` says who to contact, `headers` adds `Retry-After`;
 * `retryAfter` (seconds) is both that header and the wait the page says.
 */
export function endAnswer(
  reason: BuyerEndReason,
  reply: BuyerReply,
  options: {
    readonly authorName?: string | undefined;
    readonly headers?: Headers;
    readonly retryAfter?: number;
  } = {},
): ServiceResponse {
  const { status, kind, detail } = ENDS[reason];
  const { retryAfter } = options;
  const wait = retryAfter === undefined ? {} : { retryAfter };
  const headers = { ...options.headers, ...(retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) }) };
  if (reply.format === 'json') return problemResponse(kind, detail, { ...BUYER_PAGE_HEADERS, ...headers }, status);
  const author = options.authorName === undefined ? {} : { authorName: options.authorName };
  return pageAnswer(status, { kind: 'end', reason, place: reply.place, ...author, ...wait }, reply, headers);
}

/** A JSON answer of the transfer route, with the buyer's headers. */
export function buyerJson(status: number, body: unknown): ServiceResponse {
  return jsonResponse(status, body, BUYER_PAGE_HEADERS);
}

/** An `HttpError` of a buyer route (405, 413, 415, a malformed body, a store fault) as its problem. */
export function buyerProblem(error: HttpError): ServiceResponse {
  return errorResponse(error, BUYER_PAGE_HEADERS);
}
