import { describe, expect, it } from 'vitest';
import { format, outcomeLabel, placeholders, translator } from './translate.js';

describe('format', () => {
  it('replaces each {name} with its value', () => {
    expect(format('Key …{hint} revoked ({date}).', { hint: 'AB12', date: 'today' })).toBe('Key …AB12 revoked (today).');
  });

  it('writes numbers as they are and keeps a placeholder without a value', () => {
    expect(format('{n} of {total}', { n: 0 })).toBe('0 of {total}');
  });

  it('does not read a value as a template: a value holding {x} stays as it is', () => {
    expect(format('{a} {b}', { a: '{b}', b: 'B' })).toBe('{b} B');
  });
});

describe('placeholders', () => {
  it('lists the names, sorted', () => {
    expect(placeholders('{b} and {a}, {b}')).toEqual(['a', 'b', 'b']);
  });
});

describe('translator and outcomeLabel', () => {
  it('answers in the chosen language', () => {
    expect(translator('en')('nav.keys')).toBe('Keys');
    expect(translator('fr')('nav.keys')).toBe('Clés');
  });

  it('names a known outcome, and shows a motif a later service adds as it is sent', () => {
    expect(outcomeLabel('revocation', translator('fr'))).toBe('Révoquée');
    expect(outcomeLabel('ok', translator('en'))).toBe('Valid');
    expect(outcomeLabel('suspendue', translator('en'))).toBe('suspendue');
  });
});
