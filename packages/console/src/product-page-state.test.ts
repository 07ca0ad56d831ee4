import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { productPageState } from './product-page-state.js';

const view = { produit: 'mon-theme', count: 0, keys: [] };

describe('productPageState', () => {
  it('shows the heading alone until the first answer', () => {
    expect(productPageState({ data: null, error: null, loading: true })).toBe('loading');
  });

  it('a 404, another author’s product or a missing one: the not-found page, nothing of the product', () => {
    expect(productPageState({ data: null, error: new ApiError(404), loading: false })).toBe('missing');
  });

  it('the product once its installations answered, and while they load again after a key is issued', () => {
    expect(productPageState({ data: view, error: null, loading: false })).toBe('shown');
    expect(productPageState({ data: view, error: null, loading: true })).toBe('shown');
  });

  it('another failure keeps the page: the alert says why', () => {
    expect(productPageState({ data: null, error: new ApiError(503), loading: false })).toBe('shown');
    expect(productPageState({ data: null, error: new ApiError(403), loading: false })).toBe('shown');
    expect(productPageState({ data: null, error: new TypeError('x'), loading: false })).toBe('shown');
  });
});
