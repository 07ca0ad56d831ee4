// buyer/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export type { BuyerEndView } from './buyer-page-views.js';
export { BUYER_PAGE_HEADERS, renderBuyerPage } from './buyer-page.js';
export { buyerRouteLabel, handleBuyer, isBuyerPath } from './buyer-routes.js';
export { checkBuyerToken, makeBuyerToken } from './buyer-token.js';
