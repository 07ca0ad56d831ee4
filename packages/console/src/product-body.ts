import type { ProductInput } from './api-types.js';
import { stagingList } from './staging-text.js';

/** The new-product form as typed; `staging` is the text box, one pattern a line. */
export interface ProductForm {
  readonly id: string;
  readonly name: string;
  readonly author: string;
  readonly staging: string;
}

/**
 * The body of `POST admin/products` (docs/protocol.md#authors, #staging-hosts). An author token
 * never sends `author` (the product is its own); `staging` goes only when a pattern is typed, its
 * rules left to the service, whose 400 names the bad pattern.
 */
export function productBody(form: ProductForm, role: 'operator' | 'author'): ProductInput {
  const staging = stagingList(form.staging);
  const base: ProductInput =
    role === 'operator' ? { id: form.id, name: form.name, author: form.author } : { id: form.id, name: form.name };
  return staging.length === 0 ? base : { ...base, staging };
}
