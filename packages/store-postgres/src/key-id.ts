/**
 * The port's ids are opaque strings (ports.ts); here they are `bigint` identity values written in
 * decimal, as `pg` returns int8. A string that is not one (`''`, `'abc'`, `'01'`, `'1e3'`, beyond
 * int8) names no row: lookups answer null instead of letting PostgreSQL fail on a bad cast.
 */
const INT8_MAX = 9_223_372_036_854_775_807n;

export function parseKeyId(id: string): string | null {
  if (!/^[1-9][0-9]{0,18}$/.test(id) || BigInt(id) > INT8_MAX) {
    return null;
  }
  return id;
}
