import { describe, expect, it } from 'vitest';
import { keyState } from './key-state.js';

const NOW = 1_800_000_000;

describe('keyState: rules 3 and 4 of docs/protocol.md#verdict', () => {
  it('a trial past its end is expiree though stored active', () => {
    expect(keyState({ status: 'active', expiresAt: null }, NOW)).toBe('active');
    expect(keyState({ status: 'active', expiresAt: NOW + 1 }, NOW)).toBe('active');
    expect(keyState({ status: 'active', expiresAt: NOW }, NOW)).toBe('expiree');
    expect(keyState({ status: 'revocation', expiresAt: NOW - 1 }, NOW)).toBe('revocation');
  });
});
