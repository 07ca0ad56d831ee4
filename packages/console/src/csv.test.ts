import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv.js';

describe('csvCell (RFC 4180)', () => {
  it('leaves a plain field as it is', () => {
    expect(csvCell('exemple.fr')).toBe('exemple.fr');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
  });

  it('quotes a field holding a comma, a double quote, CR or LF, and doubles its double quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it('neutralises a cell a spreadsheet would run as a formula: = + - @ tab CR', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvCell('+1+1')).toBe("'+1+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe('"\'\r=1"');
  });

  it('leaves a formula sign that is not first alone, and numbers as numbers', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(-1)).toBe('-1');
  });
});

describe('toCsv', () => {
  it('writes the header then each row, every record ending in CRLF', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['1', 2],
          [null, 'x,y'],
        ],
      ),
    ).toBe('a,b\r\n1,2\r\n,"x,y"\r\n');
  });

  it('writes the header alone when there is no row', () => {
    expect(toCsv(['a'], [])).toBe('a\r\n');
  });
});
