/**
 * CSV as RFC 4180 writes it: fields separated by commas, records by CRLF, a field holding a comma,
 * a double quote, CR or LF quoted, its double quotes doubled.
 *
 * A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula (and some read a
 * leading tab or CR the same way): a domain label or token label could be chosen to do that
 * ("CSV injection", OWASP). Such a cell gets a leading apostrophe, which spreadsheets show as text.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: neutralised against formulas, then quoted when RFC 4180 requires it. */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole file: a header record, then one record per row; every record ends with CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
