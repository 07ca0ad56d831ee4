import { keyCaseExpected, keyCaseInput, loadKeyVectors } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { keyHint, normalizeKey } from './normalize-key.js';
import { ValidationError } from './validation-error.js';

const cases = loadKeyVectors().cases.flatMap((c) => (c.kind === 'normalise' ? [c] : []));

describe('normalizeKey (keys.json)', () => {
  it('has the vector cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const input = keyCaseInput(c);
    const expected = keyCaseExpected(c);
    if (expected === null) {
      expect(() => normalizeKey(input)).toThrow(ValidationError);
    } else {
      expect(normalizeKey(input)).toBe(expected);
    }
  });
});

describe('normalizeKey messages', () => {
  it.each([
    [42, 'cle: expected a string, got number'],
    [null, 'cle: expected a string, got null'],
    [['A'], 'cle: expected a string, got array'],
    ['', 'cle: is empty'],
    [' - ', 'cle: holds no letter or digit'],
    ['A'.repeat(1025), 'cle: longer than 1024 characters'],
  ])('%j -> %s', (input, message) => {
    expect(() => normalizeKey(input)).toThrow(message);
    try {
      normalizeKey(input);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe('cle');
    }
  });

  it('never puts the key in the message', () => {
    const secret = `${'SECRETKEY'.repeat(114)}X`;
    expect(() => normalizeKey(secret)).toThrow(/^cle: longer than 1024 characters$/);
  });
});

describe('keyHint', () => {
  it('shows the last four characters only', () => {
    expect(keyHint('7Q2MXK4P9TZB8RW3HJNE6VC0A')).toBe('VC0A');
    expect(keyHint('AB')).toBe('AB');
  });
});
