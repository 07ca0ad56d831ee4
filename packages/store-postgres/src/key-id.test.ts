import { describe, expect, it } from 'vitest';
import { parseKeyId } from './key-id.js';

describe('parseKeyId', () => {
  it('keeps decimal int8 ids', () => {
    expect(parseKeyId('1')).toBe('1');
    expect(parseKeyId('9223372036854775807')).toBe('9223372036854775807');
  });

  it('refuses anything else', () => {
    for (const id of [
      '',
      '0',
      '01',
      '-1',
      '1e3',
      ' 1',
      '1 ',
      'abc',
      '1.0',
      '9223372036854775808',
      '99999999999999999999',
      '١',
    ]) {
      expect(parseKeyId(id)).toBeNull();
    }
  });
});
