import { describe, expect, it } from 'vitest';
import { editDistance, nearestWord } from './nearest-word.js';

describe('editDistance: optimal string alignment (a swap of neighbours is one edit)', () => {
  it.each([
    ['', '', 0],
    ['key', 'key', 0],
    ['', 'key', 3],
    ['key', '', 3],
    ['kye', 'key', 1],
    ['--prodiut', '--produit', 1],
    ['server', 'serve', 1],
    ['serve', 'sevre', 1],
    ['serve', 'sever', 2],
    ['kitten', 'sitting', 3],
    // OSA, not full Damerau: a swapped pair is not edited again (ca -> abc takes 3, not 2).
    ['ca', 'abc', 3],
    ['purge', 'issue', 4],
  ])('%j to %j: %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('nearestWord', () => {
  const commands = ['serve', 'keygen', 'token', 'installations', 'purge', 'product', 'key', 'author', 'webhook'];

  it('finds the command a typo meant', () => {
    expect(nearestWord('kye', commands)).toBe('key');
    expect(nearestWord('server', commands)).toBe('serve');
    expect(nearestWord('tokne', commands)).toBe('token');
    expect(nearestWord('webhooks', commands)).toBe('webhook');
    expect(nearestWord('PURGE', commands)).toBe('purge');
  });

  it('finds nothing for a word that is no typo of any (one edit per three characters, at least one)', () => {
    expect(nearestWord('frobnicate', commands)).toBeUndefined();
    expect(nearestWord('x', commands)).toBeUndefined();
    expect(nearestWord('ky', ['key', 'token'])).toBe('key');
    expect(nearestWord('kx', ['key'])).toBeUndefined();
  });

  it('takes the nearest, and the earlier one of a tie', () => {
    expect(nearestWord('--prodiut', ['--product', '--produit'])).toBe('--produit');
    expect(nearestWord('kez', ['key', 'kex'])).toBe('key');
    expect(nearestWord('kez', ['kex', 'key'])).toBe('kex');
  });
});
