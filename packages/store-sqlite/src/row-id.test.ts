import { describe, expect, it } from 'vitest';
import { formatRowId, parseRowId } from './row-id.js';

describe('parseRowId', () => {
  it('reads a decimal rowid', () => {
    expect(parseRowId('1')).toBe(1);
    expect(parseRowId('123456789012345')).toBe(123456789012345);
  });

  it.each(['', '0', '01', '-1', '1.5', '1e3', ' 1', 'abc', '0x10', '1234567890123456'])('refuses %j', (id) => {
    expect(parseRowId(id)).toBeNull();
  });

  it('round-trips with formatRowId', () => {
    expect(parseRowId(formatRowId(42))).toBe(42);
    expect(formatRowId(7n)).toBe('7');
  });
});
