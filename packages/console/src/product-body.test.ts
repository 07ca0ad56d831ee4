import { describe, expect, it } from 'vitest';
import { productBody } from './product-body.js';

const form = { id: 'crochet', name: 'Crochet', author: 'atelier', staging: '' };

describe('productBody', () => {
  it('the operator names the author; no staging key when the box is empty', () => {
    expect(productBody(form, 'operator')).toEqual({ id: 'crochet', name: 'Crochet', author: 'atelier' });
  });

  it('an author token never sends an author', () => {
    expect(productBody({ ...form, author: 'someone' }, 'author')).toEqual({ id: 'crochet', name: 'Crochet' });
  });

  it('sends the typed patterns as a list, one a line, blank lines dropped', () => {
    expect(productBody({ ...form, staging: '*.crochet.dev\n\n staging-*.shop.example ' }, 'author')).toEqual({
      id: 'crochet',
      name: 'Crochet',
      staging: ['*.crochet.dev', 'staging-*.shop.example'],
    });
  });

  it('a box of blanks and commas only is no staging at all', () => {
    expect('staging' in productBody({ ...form, staging: ' ,\n ' }, 'operator')).toBe(false);
  });
});
