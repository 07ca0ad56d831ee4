/**
 * The language a request prefers among those offered, from `Accept-Language` (RFC 9110 12.5.4):
 * the console's `lang` (docs/protocol.md#console). A range counts for a language by its primary
 * subtag (`fr-CA` asks for French); the highest q-value wins, and of equal ones the range named
 * first. `q=0` refuses, `*` and a malformed entry count for nothing, and a header that prefers none
 * of the offered languages gets the first of them.
 */

// RFC 9110 12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ).
const QVALUE = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

interface Range {
  readonly primary: string;
  readonly q: number;
}

/** The entries of the header that parse, in order. */
function ranges(header: string): Range[] {
  const parsed: Range[] = [];
  for (const entry of header.split(',')) {
    const [tag = '', ...parameters] = entry.split(';').map((part) => part.trim());
    if (!/^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(tag)) continue;
    let q = 1;
    let valid = true;
    for (const parameter of parameters) {
      const [name = '', value = ''] = parameter.split('=').map((part) => part.trim());
      if (name.toLowerCase() !== 'q') continue;
      valid = QVALUE.test(value);
      q = Number(value);
    }
    if (valid) parsed.push({ primary: (tag.split('-')[0] ?? '').toLowerCase(), q });
  }
  return parsed;
}

/** The offered language (lower case, e.g. `['en', 'fr']`) the header prefers; the first by default. */
export function preferredLanguage<L extends string>(header: string | undefined, offered: readonly [L, ...L[]]): L {
  let best: { readonly language: L; readonly q: number } | null = null;
  for (const range of ranges(header ?? '')) {
    const language = offered.find((candidate) => candidate === range.primary);
    // Strictly better only: of equal q-values, the range named first stays.
    if (language !== undefined && range.q > 0 && (best === null || range.q > best.q)) best = { language, q: range.q };
  }
  return best?.language ?? offered[0];
}
