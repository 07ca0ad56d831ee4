import { describe, expect, it } from 'vitest';
import { keySpellings, linesHolding } from './log-secrets.js';

describe('keySpellings and linesHolding', () => {
  it('finds a key in a log line in any of its spellings', () => {
    const spellings = keySpellings('ABCDE-FGHJK-MNPQR');
    expect(spellings).toEqual(['ABCDE-FGHJK-MNPQR', 'ABCDEFGHJKMNPQR', 'abcdefghjkmnpqr']);
    const lines = ['{"msg":"request","status":200}', '{"cle":"abcdefghjkmnpqr"}'];
    expect(linesHolding(lines, spellings)).toEqual(['{"cle":"abcdefghjkmnpqr"}']);
    expect(linesHolding(lines.slice(0, 1), spellings)).toEqual([]);
  });
});
