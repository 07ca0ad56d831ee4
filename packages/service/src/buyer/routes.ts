import { preferredLanguage } from '../http/index.js';
import { type BuyerReply, endAnswer, pageAnswer } from './answer.js';
import { keyView } from './key-view.js';
import { linkedKey } from './link-key.js';
import { BUYER_PAGE_HEADERS, BUYER_STYLESHEET } from './page.js';
import { buyerRateLimited } from './rate-limit.js';
import { handleTransfer, transferFormat } from './transfer.js';
import { HttpError } from '../http/index.js';
import { nowSeconds, type ServiceContext } from '../http/index.js';
import type { ServiceRequest, ServiceResponse } from '../http/index.js';

/**
 * The buyer's routes (docs/protocol.md#buyer-links), served whether or not the admin API is on: the
 * link itself opens them, no token of the admin API.
 *
 * | route                          | methods     |
 * | ------------------------------ | ----------- |
 * | `/buyer/buyer.css`             | GET, HEAD   |
 * | `/buyer/:token`                | GET, HEAD   |
 * | `/buyer/:token/transfer`       | POST        |
 *
 * Another method is a 405 with `Allow`; another path under `/buyer` a 404. The page and the
 * transfer count against the client address's buyer rate limit (rate-limit.ts), before the
 * token's signature is checked; the style sheet does not. The token is never
 * logged: a log line names the route (`buyerRouteLabel`), never the path. Errors are thrown as
 * HttpErrors, which the caller answers as problems with BUYER_PAGE_HEADERS.
 */

export const BUYER_PATH = '/buyer';
export const BUYER_STYLESHEET_PATH = `${BUYER_PATH}/buyer.css`;
export const BUYER_PAGE_ROUTE = `${BUYER_PATH}/:token`;
export const BUYER_TRANSFER_ROUTE = `${BUYER_PATH}/:token/transfer`;

const GET_HEAD = 'GET, HEAD';

/** True for `/buyer` and every path below it. */
export function isBuyerPath(path: string): boolean {
  return path === BUYER_PATH || path.startsWith(`${BUYER_PATH}/`);
}

/** The route a buyer path matches, as a log line names it; `/buyer/*` for none. */
export function buyerRouteLabel(path: string): string {
  if (path === BUYER_STYLESHEET_PATH) return BUYER_STYLESHEET_PATH;
  const segments = path.slice(BUYER_PATH.length + 1).split('/');
  const [token = '', action] = segments;
  if (token !== '' && segments.length === 1) return BUYER_PAGE_ROUTE;
  if (token !== '' && segments.length === 2 && action === 'transfer') return BUYER_TRANSFER_ROUTE;
  return `${BUYER_PATH}/*`;
}

/** Throws the 405 unless `method` is among `allow` (`GET, HEAD`). */
function requireMethod(method: string, allow: string): void {
  if (!allow.split(', ').includes(method)) {
    throw new HttpError('method-not-allowed', `use ${allow} on this path`, { headers: { Allow: allow } });
  }
}

/** Answers a request whose path `isBuyerPath`. */
export async function handleBuyer(context: ServiceContext, request: ServiceRequest): Promise<ServiceResponse> {
  const route = buyerRouteLabel(request.path);
  const token = request.path.split('/')[2] ?? '';
  const lang = preferredLanguage(request.headers['accept-language'], ['en', 'fr']);
  const head = request.method === 'HEAD';
  if (route === BUYER_STYLESHEET_PATH) {
    requireMethod(request.method, GET_HEAD);
    const headers = { ...BUYER_PAGE_HEADERS, 'Content-Type': 'text/css; charset=utf-8' };
    return { status: 200, headers, body: head ? '' : BUYER_STYLESHEET };
  }
  if (route === BUYER_PAGE_ROUTE) {
    requireMethod(request.method, GET_HEAD);
    return showKeyPage(context, request, token, { format: 'html', lang, place: 'page', head });
  }
  if (route === BUYER_TRANSFER_ROUTE) {
    requireMethod(request.method, 'POST');
    return handleTransfer(context, request, token, { format: transferFormat(request), lang, place: 'transfer', head });
  }
  throw new HttpError('not-found', 'no such buyer page');
}

/**
 * `GET /buyer/:token`: the key's page, or the end page that replaces it; counted against the
 * client's buyer rate limit before the token is checked (rate-limit.ts).
 */
async function showKeyPage(
  context: ServiceContext,
  request: ServiceRequest,
  token: string,
  reply: BuyerReply,
): Promise<ServiceResponse> {
  const overLimit = await buyerRateLimited(context, request, reply);
  if (overLimit !== null) return overLimit;
  const now = nowSeconds(context.clock);
  const linked = await linkedKey(context, token, now);
  if (linked.status === 'end') return endAnswer(linked.reason, reply, { authorName: linked.authorName });
  return pageAnswer(200, await keyView(context, linked, { token, place: reply.place, now }), reply);
}
