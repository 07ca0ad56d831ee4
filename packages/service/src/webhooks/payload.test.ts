import { generateKey, type KeyKind, keyHint, normalizeKey } from '@licence/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  domainBoundData,
  keyIssuedData,
  keyReplacedData,
  keyRevokedData,
  verdictRefusedData,
  WEBHOOK_EVENT_TYPES,
  webhookBody,
  type WebhookEventData,
  type WebhookEventType,
  type WebhookInitiator,
} from './payload.js';

// What an untyped caller (JSON, JavaScript) could pass where the types forbid it.
const untyped = <T>(value: string): T => value as T;

const OLD = 'ABCDE-FGHJK-MNPQR-STVWX-YZ211';
const NEW = '0123G-45678-9ABCD-EFGHJ-KM211';

describe('webhookBody (docs/protocol.md#webhooks)', () => {
  it('lists the six event types of the design', () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual([
      'key.issued',
      'key.regenerated',
      'key.transferred',
      'key.revoked',
      'domain.bound',
      'verdict.refused',
    ]);
  });

  it('is {type, timestamp (ISO 8601 UTC), data} as JSON', () => {
    const data = keyRevokedData({
      hint: 'Z211',
      produit: 'son-theme',
      quand: '2026-01-01T00:00:00Z',
      reason: 'refund',
    });
    expect(webhookBody('key.revoked', 1767225600, data)).toBe(
      '{"type":"key.revoked","timestamp":"2026-01-01T00:00:00Z","data":{"hint":"Z211","produit":"son-theme","quand":"2026-01-01T00:00:00Z","reason":"refund"}}',
    );
  });

  it('refuses an unknown type and a bad time', () => {
    const data = keyRevokedData({ hint: 'Z211', produit: 'p', quand: '2026-01-01T00:00:00Z', reason: null });
    // @ts-expect-error: not an event type
    expect(() => webhookBody('key.deleted', 0, data)).toThrow(
      `type: expected one of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    );
    expect(() => webhookBody('key.revoked', 1.5, data)).toThrow('quand: expected an integer');
  });
});

describe('data builders', () => {
  it('copy the named fields only', () => {
    const issued = { cle: OLD, hint: 'Z211', produit: 'son-theme', kind: 'buyer', sites: 2, expire: null } as const;
    expect(keyIssuedData(issued)).toEqual({
      hint: 'Z211',
      produit: 'son-theme',
      kind: 'buyer',
      sites: 2,
      expire: null,
    });
    expect(keyReplacedData({ hint: 'Z211', cle: NEW, produit: 'p' })).toEqual({ hint: 'Z211', cle: NEW, produit: 'p' });
    expect(keyReplacedData({ hint: 'Z211', cle: NEW, produit: 'p', initiatedBy: 'buyer' }).initiatedBy).toBe('buyer');
    const revoked = { hint: 'Z211', produit: 'p', quand: '2026-01-01T00:00:00Z', reason: 'chargeback', note: 'x' };
    expect(keyRevokedData(revoked)).toEqual({
      hint: 'Z211',
      produit: 'p',
      quand: '2026-01-01T00:00:00Z',
      reason: 'chargeback',
    });
    expect(domainBoundData({ hint: 'Z211', produit: 'p', domain: 'exemple.fr' })).toEqual({
      hint: 'Z211',
      produit: 'p',
      domain: 'exemple.fr',
    });
    expect(verdictRefusedData({ hint: 'Z211', produit: 'p', motif: 'autre_domaine', hote: 'autre.fr' })).toEqual({
      hint: 'Z211',
      produit: 'p',
      motif: 'autre_domaine',
      hote: 'autre.fr',
    });
  });

  it.each([
    [
      () => keyIssuedData({ hint: OLD, produit: 'p', kind: 'buyer', sites: 1, expire: null }),
      "hint: expected the key's four-character hint, got a string of 29 characters",
    ],
    [
      () => domainBoundData({ hint: normalizeKey(OLD), produit: 'p', domain: 'd' }),
      "hint: expected the key's four-character hint, got a string of 25 characters",
    ],
    [
      () => keyRevokedData({ hint: 'z211', produit: 'p', quand: 'q', reason: null }),
      "hint: expected the key's four-character hint, got a string of 4 characters",
    ],
    [
      () => keyReplacedData({ hint: 'Z211', cle: normalizeKey(NEW), produit: 'p' }),
      'cle: expected a formatted 25-character key, got a string of 25 characters',
    ],
    [
      () => keyReplacedData({ hint: 'Z211', cle: 'Z211', produit: 'p' }),
      'cle: expected a formatted 25-character key, got a string of 4 characters',
    ],
    [
      () => keyReplacedData({ hint: 'Z211', cle: NEW, produit: 'p', initiatedBy: untyped<WebhookInitiator>('robot') }),
      'initiatedBy: expected one of operator, author, buyer',
    ],
    [
      () => keyIssuedData({ hint: 'Z211', produit: 'p', kind: untyped<KeyKind>('gold'), sites: 1, expire: null }),
      'kind: expected one of',
    ],
    [
      () => keyIssuedData({ hint: 'Z211', produit: 'p', kind: 'buyer', sites: -1, expire: null }),
      'sites: expected a whole number, got -1',
    ],
    [
      () => keyIssuedData({ hint: 'Z211', produit: '', kind: 'buyer', sites: 1, expire: null }),
      'produit: expected a non-empty string, got a string of 0 characters',
    ],
    [
      () =>
        verdictRefusedData({ hint: 'Z211', produit: 'p', motif: untyped<'autre_domaine'>('revocation'), hote: 'h' }),
      'motif: verdict.refused is sent for autre_domaine only',
    ],
  ])('refuses bad input %#, never echoing a value', (build, message) => {
    expect(build).toThrow(message);
  });
});

// Every spelling of a key that could leak: formatted, normalised, lower case.
const spellings = (cle: string) => {
  const normalised = normalizeKey(cle);
  return [cle, normalised, normalised.toLowerCase()];
};

const keyArbitrary = fc.uint8Array({ minLength: 25, maxLength: 25 }).map((bytes) => generateKey(() => bytes));

// One body per event type, built from inputs that carry the full old key in extra fields (as an
// `IssuedKey` or a store row would), with every other field free text.
function bodies(old: string, next: string, free: string): Record<WebhookEventType, string> {
  const hint = keyHint(normalizeKey(old));
  const extra = { cle: old, key: normalizeKey(old), secret: old };
  const data: WebhookEventData = {
    'key.issued': keyIssuedData({
      ...extra,
      hint,
      produit: free,
      kind: 'trial',
      sites: 3,
      expire: '2026-01-01T00:00:00Z',
    }),
    'key.regenerated': keyReplacedData({ ...extra, hint, cle: next, produit: free }),
    'key.transferred': keyReplacedData({ ...extra, hint, cle: next, produit: free, initiatedBy: 'author' }),
    'key.revoked': keyRevokedData({ ...extra, hint, produit: free, quand: '2026-01-01T00:00:00Z', reason: free }),
    'domain.bound': domainBoundData({ ...extra, hint, produit: free, domain: `${free}.fr` }),
    'verdict.refused': verdictRefusedData({ ...extra, hint, produit: free, motif: 'autre_domaine', hote: free }),
  };
  const entries = WEBHOOK_EVENT_TYPES.map((type) => [type, webhookBody(type, 1767225600, data[type])] as const);
  return Object.fromEntries(entries) as Record<WebhookEventType, string>;
}

describe('a key appears only as its hint, except data.cle of a replacement (property)', () => {
  it('holds for random keys and fields', () => {
    fc.assert(
      fc.property(keyArbitrary, keyArbitrary, fc.string({ minLength: 1, maxLength: 20 }), (old, next, free) => {
        fc.pre(normalizeKey(old) !== normalizeKey(next));
        for (const [type, body] of Object.entries(bodies(old, next, free))) {
          const parsed = JSON.parse(body) as { data: Record<string, unknown> };
          const replacement = type === 'key.regenerated' || type === 'key.transferred';
          expect(parsed.data.cle === next).toBe(replacement);
          const { cle: _shown, ...rest } = parsed.data;
          const withoutCle = JSON.stringify({ ...parsed, data: rest });
          for (const spelling of [...spellings(old), ...spellings(next)]) {
            expect(withoutCle.includes(spelling)).toBe(false);
          }
          expect(parsed.data.hint).toBe(keyHint(normalizeKey(old)));
        }
      }),
      { numRuns: 200 },
    );
  });
});
