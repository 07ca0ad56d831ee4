// buyer/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export type { BuyerEndView } from './buyer-page-views.js';
export { BUYER_PAGE_HEADERS, renderBuyerPage } from './buyer-page.js';
export {
  BUYER_PAGE_ROUTE,
  BUYER_PATH,
  BUYER_STYLESHEET_PATH,
  BUYER_TRANSFER_ROUTE,
  buyerRouteLabel,
  handleBuyer,
  isBuyerPath,
} from './buyer-routes.js';
export { BUYER_TOKEN_CONTEXT, checkBuyerToken, makeBuyerToken } from './buyer-token.js';
export type { BuyerTokenCheck, BuyerTokenKey } from './buyer-token.js';
