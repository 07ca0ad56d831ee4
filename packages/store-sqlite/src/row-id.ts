/**
 * The port's ids are opaque strings (ports.ts); here they are SQLite rowids written in decimal.
 * A string that is not one (`''`, `'abc'`, `'01'`, `'1e3'`) names no row: lookups answer null
 * instead of letting SQLite's type affinity guess.
 */
export function parseRowId(id: string): number | null {
  if (!/^[1-9][0-9]{0,14}$/.test(id)) {
    return null;
  }
  return Number(id);
}

export function formatRowId(rowid: number | bigint): string {
  return String(rowid);
}
