import { ApiError } from './api-error.js';

/** What a product's page shows: its heading alone while the first answer is awaited, the product, or a not-found page. */
export type ProductPageState = 'loading' | 'missing' | 'shown';

/** The first call about the product (its installations) as `useLoad` reports it. */
export interface ProductLoad {
  readonly data: unknown;
  readonly error: unknown;
  readonly loading: boolean;
}

/**
 * Another author's product answers 404 exactly like a missing one (docs/protocol.md#authors), and
 * its page must show nothing of it: no form to issue a key, no empty panels, only that it was not
 * found. Until the first answer the page shows its heading alone, so the forms never flash on a
 * product that turns out to be out of reach; a reload (after a key is issued) keeps the page as it
 * is. Any other failure keeps the page: its alert says why, and the user may try again.
 */
export function productPageState(load: ProductLoad): ProductPageState {
  if (load.error instanceof ApiError && load.error.status === 404) return 'missing';
  if (load.data === null && load.loading) return 'loading';
  return 'shown';
}
