import { describe, expect, it } from 'vitest';
import { requireKeyId } from './require-key-id.js';

describe('requireKeyId', () => {
  const parse = (id: string): number | null => (/^[1-9][0-9]*$/.test(id) ? Number(id) : null);

  it("answers the store's own form of a well-formed id", () => {
    expect(requireKeyId('42', parse)).toBe(42);
  });

  it('throws a TypeError naming an id that is not one of the store', () => {
    expect(() => requireKeyId('01', parse)).toThrow(new TypeError('keyId: expected a key id of this store, got "01"'));
  });
});
