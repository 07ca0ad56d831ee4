import { KEY_KINDS, KEY_STATUSES } from '@licence/core';
import { describe, expect, it } from 'vitest';
import { storedKeyKind, storedKeyStatus } from './stored-key-fields.js';

describe('stored key fields', () => {
  it('passes every kind and status of the protocol through', () => {
    for (const kind of KEY_KINDS) expect(storedKeyKind('1', kind)).toBe(kind);
    for (const status of KEY_STATUSES) expect(storedKeyStatus(1, status)).toBe(status);
  });

  it('refuses anything else, naming the key and the value (docs/protocol.md#errors)', () => {
    expect(() => storedKeyKind(7, 'gift')).toThrow('keys.kind of key 7: expected one of buyer, trial, dev, got "gift"');
    expect(() => storedKeyStatus('8', 'Active')).toThrow(
      'keys.status of key 8: expected one of active, transfert, regeneration, revocation, got "Active"',
    );
  });
});
