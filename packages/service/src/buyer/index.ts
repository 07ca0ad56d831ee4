// buyer/: the wing's one door (CONTRIBUTING.md#architecture). This file only re-exports.
export type { BuyerEndView } from './page-views.js';
export { BUYER_PAGE_HEADERS, renderBuyerPage } from './page.js';
export { buyerRouteLabel, handleBuyer, isBuyerPath } from './routes.js';
export { checkBuyerToken, makeBuyerToken } from './token.js';
