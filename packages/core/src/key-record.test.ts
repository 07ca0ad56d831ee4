import { describe, expect, it } from 'vitest';
import { VALID_KEY } from '../test/key-record-support.js';
import { expectValidationError } from '../test/validation-error-support.js';
import { KEY_KINDS, KEY_STATUSES, parseKeyRecord } from './key-record.js';

const withKey = (patch: Record<string, unknown>) => ({ ...VALID_KEY, ...patch });

describe('parseKeyRecord (docs/protocol.md#key-lifecycle, #binding)', () => {
  it('names the kinds and statuses of docs/protocol.md#key-lifecycle', () => {
    expect(KEY_KINDS).toEqual(['buyer', 'trial', 'dev']);
    expect(KEY_STATUSES).toEqual(['active', 'transfert', 'regeneration', 'revocation']);
  });

  it('passes null (no such key) through as null', () => {
    expect(parseKeyRecord(null)).toBeNull();
  });

  it.each([
    ['an active buyer key', VALID_KEY],
    ['a revoked key, dated', withKey({ status: 'revocation', endedAt: 1793810730 })],
    ['a live trial key with its end', withKey({ kind: 'trial', expiresAt: 1795996800 })],
    ['an ended trial key', withKey({ kind: 'trial', expiresAt: 1795996800, status: 'transfert', endedAt: 1 })],
    ['a dev key opening several products, binding nothing', withKey({ kind: 'dev', products: ['a', 'b'], sites: 0 })],
    ['times up to year 9999', withKey({ status: 'regeneration', endedAt: 253402300799 })],
  ])('accepts %s', (_what, fields) => {
    expect(parseKeyRecord(fields)).toStrictEqual(fields);
  });

  it('drops fields it does not know', () => {
    expect(parseKeyRecord({ ...VALID_KEY, id: 7, hint: 'WXYZ' })).toStrictEqual(VALID_KEY);
  });

  it.each<[string, unknown, string]>([
    ['no key field', undefined, 'key: expected an object or null, got undefined'],
    ['a key as a string', 'ABCDE-FGHJK', 'key: expected an object or null, got string'],
    ['a key as an array', [], 'key: expected an object or null, got array'],
    ['an unknown kind', withKey({ kind: 'gold' }), 'key.kind: expected one of "buyer", "trial", "dev", got "gold"'],
    ['no kind', withKey({ kind: undefined }), 'key.kind: expected one of "buyer", "trial", "dev", got undefined'],
    [
      'an unknown status',
      withKey({ status: 'expiree' }),
      'key.status: expected one of "active", "transfert", "regeneration", "revocation", got "expiree"',
    ],
    ['endedAt as a string', withKey({ endedAt: '2026' }), 'key.endedAt: expected null or a number, got string'],
    ['no endedAt', withKey({ endedAt: undefined }), 'key.endedAt: expected null or a number, got undefined'],
    [
      'a negative endedAt',
      withKey({ status: 'revocation', endedAt: -1 }),
      'key.endedAt: expected an integer from 0 to 253402300799, got -1',
    ],
    [
      'an endedAt past year 9999',
      withKey({ status: 'revocation', endedAt: 253402300800 }),
      'key.endedAt: expected an integer from 0 to 253402300799, got 253402300800',
    ],
    [
      'a fractional expiresAt',
      withKey({ kind: 'trial', expiresAt: 1.5 }),
      'key.expiresAt: expected an integer from 0 to 253402300799, got 1.5',
    ],
    ['products as a string', withKey({ products: 'galerie-pro' }), 'key.products: expected an array, got string'],
    [
      'a numeric product',
      withKey({ products: ['galerie-pro', 7] }),
      'key.products[1]: expected a non-empty string, got number',
    ],
    [
      'an empty product',
      withKey({ products: [''] }),
      'key.products[0]: expected a non-empty string, got an empty string',
    ],
    ['negative sites', withKey({ sites: -1 }), 'key.sites: expected an integer from 0 to 9007199254740991, got -1'],
    ['fractional sites', withKey({ sites: 1.5 }), 'key.sites: expected an integer from 0 to 9007199254740991, got 1.5'],
    ['sites as a string', withKey({ sites: '1' }), 'key.sites: expected a number, got string'],
    ['null domains', withKey({ domains: null }), 'key.domains: expected an array, got null'],
    [
      'an empty bound domain',
      withKey({ domains: ['exemple.fr', ''] }),
      'key.domains[1]: expected a non-empty string, got an empty string',
    ],
    [
      'an active key with an end',
      withKey({ endedAt: 1793810730 }),
      'key.endedAt: expected null for an active key, got 1793810730',
    ],
    [
      'a revoked key without a date',
      withKey({ status: 'revocation' }),
      'key.endedAt: expected a number for a key with status "revocation", got null',
    ],
    [
      'a transferred key without a date',
      withKey({ status: 'transfert' }),
      'key.endedAt: expected a number for a key with status "transfert", got null',
    ],
    [
      'a trial key without an end',
      withKey({ kind: 'trial' }),
      'key.expiresAt: expected a number for a trial key, got null',
    ],
    [
      'a buyer key with an end',
      withKey({ expiresAt: 1795996800 }),
      'key.expiresAt: expected null for a buyer key, got 1795996800',
    ],
    [
      'a dev key with an end',
      withKey({ kind: 'dev', expiresAt: 1795996800 }),
      'key.expiresAt: expected null for a dev key, got 1795996800',
    ],
    // Whatever rule would answer (rule 2 alone would for another product): a KeyRecord exists only
    // once the whole record is checked, before decideVerdict can be called.
    [
      'a malformed record whatever rule would answer',
      withKey({ domains: [3] }),
      'key.domains[0]: expected a non-empty string, got number',
    ],
  ])('refuses %s', (_what, input, message) => {
    // Every message opens with the field it names (`key.sites: expected ...`).
    expectValidationError(() => parseKeyRecord(input), message.slice(0, message.indexOf(':')), message);
  });
});
