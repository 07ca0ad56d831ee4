/**
 * The User-Agent a vector request carries on /api/ paths unless the step says otherwise (notes of
 * packages/vectors/cases/http.json): a product's own, which the User-Agent filter
 * (docs/protocol.md#user-agent-filter) lets through.
 */
export const PRODUCT_UA = 'VectorTest/1.0 (+https://exemple.fr)';
