import { KEY_KINDS, KEY_STATUSES } from '@licence/core';
import { describe, expect, it } from 'vitest';
import { storedColumn } from './stored-column.js';

describe('stored key fields', () => {
  it('passes every kind and status of the protocol through', () => {
    for (const kind of KEY_KINDS) expect(storedColumn.keyKind('1', kind)).toBe(kind);
    for (const status of KEY_STATUSES) expect(storedColumn.keyStatus(1, status)).toBe(status);
  });

  it('refuses anything else, naming the key and the value (docs/protocol.md#errors)', () => {
    expect(() => storedColumn.keyKind(7, 'gift')).toThrow(
      'keys.kind of key 7: expected one of buyer, trial, dev, got "gift"',
    );
    expect(() => storedColumn.keyStatus('8', 'Active')).toThrow(
      'keys.status of key 8: expected one of active, transfert, regeneration, revocation, got "Active"',
    );
  });

  it('passes who ended a key through, NULL as null, and refuses anything else', () => {
    for (const by of ['operator', 'author', 'buyer'] as const) expect(storedColumn.keyEndedBy(1, by)).toBe(by);
    expect(storedColumn.keyEndedBy(1, null)).toBeNull();
    expect(() => storedColumn.keyEndedBy(9, 'shop')).toThrow(
      'keys.ended_by of key 9: expected one of operator, author, buyer or NULL, got "shop"',
    );
  });

  it('passes a list of staging patterns through and refuses anything else, naming the product', () => {
    expect(storedColumn.staging('theme', [])).toEqual([]);
    expect(storedColumn.staging('theme', ['*.example.com', 'a.example'])).toEqual(['*.example.com', 'a.example']);
    for (const bad of [null, '*.example.com', { 0: 'a' }, ['a', 1]]) {
      expect(() => storedColumn.staging('theme', bad)).toThrow(
        'products.staging of product theme: expected a list of strings',
      );
    }
  });
});
