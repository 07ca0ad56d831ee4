import { describe, expect, it } from 'vitest';
import { keyProblem } from './client-key.js';
import { CROCKFORD_ALPHABET, formatKey } from './generate-key.js';

// client-states.json pins these through clientStep, for both clients; here, the rule alone.
describe('keyProblem', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['false', false],
    ['0', 0],
    ['an empty string', ''],
    ['spaces, tabs and line breaks', ' \t\r\n\v\f '],
  ])('%s: nothing entered (sans_cle)', (_name, cle) => {
    expect(keyProblem(cle)).toBe('sans_cle');
  });

  it.each([
    ['dashes only', '-----'],
    ['a no-break space', '\u00a0'],
    ['24 characters', 'A'.repeat(24)],
    ['26 characters', 'A'.repeat(26)],
    ['an I', `I${'A'.repeat(24)}`],
    ['a U', `${'A'.repeat(24)}u`],
    ['1025 characters around a good key', ` ${'A'.repeat(25)}${' '.repeat(999)}`],
  ])('%s: not a licence key (cle_invalide)', (_name, cle) => {
    expect(keyProblem(cle)).toBe('cle_invalide');
  });

  it('accepts an issued key however it is pasted, up to 1024 characters', () => {
    const key = formatKey(CROCKFORD_ALPHABET.slice(7, 32));
    expect(keyProblem(key)).toBeNull();
    expect(keyProblem(` ${key.toLowerCase().replaceAll('-', ' ')}\n`)).toBeNull();
    expect(keyProblem(key.padEnd(1024, ' '))).toBeNull();
  });
});
