// Writes cases/canonical.json from the table below. Every expected canonical string is written
// here by hand from docs/protocol.md#canonical-form; the script only adds its UTF-8 bytes in hex
// (a mechanical transform), so the file stays data that any implementation can check itself
// against.
// Run: node scripts/generate-canonical.mjs
import { writeFileSync } from 'node:fs';

const nine = {
  ok: true,
  motif: '',
  domaine: 'exemple.fr',
  essai: false,
  quand: '',
  emis: 1795342440,
  revalider: 1795428840,
  sursis: 2592000,
  hote: 'exemple.fr',
};

const cases = [
  [
    'the nine spec fields, sorted',
    {
      sursis: 2592000,
      revalider: 1795428840,
      quand: '',
      ok: true,
      motif: '',
      hote: 'exemple.fr',
      essai: false,
      emis: 1795342440,
      domaine: 'exemple.fr',
    },
    '{"domaine":"exemple.fr","emis":1795342440,"essai":false,"hote":"exemple.fr","motif":"","ok":true,"quand":"","revalider":1795428840,"sursis":2592000}',
  ],
  [
    'the nine fields plus produit and nonce',
    { ...nine, produit: 'mon-theme', nonce: 'AAAAAAAAAAAAAAAA' },
    '{"domaine":"exemple.fr","emis":1795342440,"essai":false,"hote":"exemple.fr","motif":"","nonce":"AAAAAAAAAAAAAAAA","ok":true,"produit":"mon-theme","quand":"","revalider":1795428840,"sursis":2592000}',
  ],
  [
    'a refusal with quand and several domains',
    {
      ok: false,
      motif: 'revocation',
      domaine: 'a.fr, b.fr',
      essai: false,
      quand: '2026-11-22T10:14:00Z',
      emis: 1795342440,
      revalider: 1795428840,
      sursis: 2592000,
      hote: 'c.fr',
    },
    '{"domaine":"a.fr, b.fr","emis":1795342440,"essai":false,"hote":"c.fr","motif":"revocation","ok":false,"quand":"2026-11-22T10:14:00Z","revalider":1795428840,"sursis":2592000}',
  ],
  [
    'forward slashes are not escaped',
    { url: 'https://exemple.fr/a/b?c=d/e' },
    '{"url":"https://exemple.fr/a/b?c=d/e"}',
  ],
  ['U+2028 and U+2029 stay raw', { s: 'a\u2028b\u2029c' }, '{"s":"a\u2028b\u2029c"}'],
  ['control characters use the JSON short forms', { s: '\b\t\n\f\r' }, '{"s":"\\b\\t\\n\\f\\r"}'],
  [
    'other control characters use lower-case \\u00XX',
    { s: '\u0000\u0001\u000b\u000e\u001a\u001f' },
    '{"s":"\\u0000\\u0001\\u000b\\u000e\\u001a\\u001f"}',
  ],
  ['DEL (U+007F) stays raw', { s: 'a\u007fb' }, '{"s":"a\u007fb"}'],
  ['C1 controls stay raw UTF-8', { s: '\u0080\u009f' }, '{"s":"\u0080\u009f"}'],
  ['quote and backslash are escaped', { s: 'say "hi" \\ bye' }, '{"s":"say \\"hi\\" \\\\ bye"}'],
  ['HTML characters stay raw', { s: "<a href='x'>&amp;</a>" }, '{"s":"<a href=\'x\'>&amp;</a>"}'],
  ['French accents stay raw UTF-8', { s: 'é à ç ô œ' }, '{"s":"é à ç ô œ"}'],
  ['CJK stays raw UTF-8', { s: '食狮.中国' }, '{"s":"食狮.中国"}'],
  ['emoji (astral) stays raw UTF-8, four bytes', { s: '🔑😀' }, '{"s":"🔑😀"}'],
  ['combining marks are not normalised (NFD stays NFD)', { s: 'e\u0301' }, '{"s":"e\u0301"}'],
  ['NFC and NFD keys are two keys', { 'e\u0301': 1, é: 2 }, '{"e\u0301":1,"é":2}'],
  ['upper case sorts before lower case', { b: 1, B: 2, a: 3, A: 4 }, '{"A":4,"B":2,"a":3,"b":1}'],
  ['a prefix sorts first', { ab: 1, a: 2, aa: 3, b: 4 }, '{"a":2,"aa":3,"ab":1,"b":4}'],
  ['digits and underscore sort by code point', { _: 1, 9: 2, 10: 3, Z: 4, z: 5 }, '{"10":3,"9":2,"Z":4,"_":1,"z":5}'],
  ['the empty key sorts first', { a: 1, '': 2 }, '{"":2,"a":1}'],
  [
    'code point order, not UTF-16 order: U+E000 before U+1F600',
    { '\u{1F600}': 1, '\uE000': 2, '\uFFFD': 3 },
    '{"\uE000":2,"\uFFFD":3,"\u{1F600}":1}',
  ],
  [
    'code point order for two-byte and three-byte keys',
    { é: 1, z: 2, 中: 3, '\u00ff': 4 },
    '{"z":2,"é":1,"\u00ff":4,"中":3}',
  ],
  ['keys with escapes are escaped in the output', { 'a\nb': 1, 'a"b': 2 }, '{"a\\nb":1,"a\\"b":2}'],
  ['integers in decimal', { zero: 0, neg: -1, big: 1234567890123 }, '{"big":1234567890123,"neg":-1,"zero":0}'],
  [
    'the largest safe integers',
    { max: 9007199254740991, min: -9007199254740991 },
    '{"max":9007199254740991,"min":-9007199254740991}',
  ],
  ['booleans and null', { t: true, f: false, n: null }, '{"f":false,"n":null,"t":true}'],
  ['empty strings', { a: '', b: '' }, '{"a":"","b":""}'],
  ['empty object', {}, '{}'],
  [
    'nested objects are sorted too',
    { z: { b: 1, a: 2 }, a: { d: { f: 1, e: 2 } } },
    '{"a":{"d":{"e":2,"f":1}},"z":{"a":2,"b":1}}',
  ],
  ['arrays keep their order', { l: [3, 1, 2, 'b', 'a'] }, '{"l":[3,1,2,"b","a"]}'],
  ['objects inside arrays are sorted', { l: [{ b: 1, a: 2 }, []] }, '{"l":[{"a":2,"b":1},[]]}'],
  [
    'a Unicode host (never emitted by the service, still covered)',
    { ...nine, hote: 'bücher.de', domaine: 'bücher.de' },
    '{"domaine":"bücher.de","emis":1795342440,"essai":false,"hote":"bücher.de","motif":"","ok":true,"quand":"","revalider":1795428840,"sursis":2592000}',
  ],
];

const rejected = [
  ['a float is refused', { n: 1.5 }],
  ['a tiny float is refused', { n: 0.1 }],
  ['an exponent beyond the integers is refused', { n: 1e300 }],
  ['2^53 is beyond the safe integers and refused', { n: 9007199254740992 }],
  ['a float nested in an array is refused', { l: [1, 2.5] }],
];

const file = {
  covers:
    'The canonical form that Ed25519 signs (docs/protocol.md#canonical-form): keys sorted by code point (UTF-8 byte order, not UTF-16), no whitespace, "/" not escaped, non-ASCII as raw UTF-8 including U+2028/U+2029, control characters escaped as JSON requires (short forms, else lower-case \\u00XX), integers in decimal within +-(2^53-1); other numbers are refused.',
  consumers: ['@licence/core (TypeScript)', 'packages/client-php (PHP)'],
  notes: [
    '`input` is a JSON value; `canonical` is the exact expected text and `utf8Hex` its UTF-8 bytes in lower-case hex; `rejected: true` means the implementation must refuse to canonicalise the input.',
    'PHP: decode objects as objects (json_decode without assoc, or take care that {} stays an object), and encode with JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_LINE_TERMINATORS (PHP 7.1+).',
    'Lone surrogates are refused too (they have no UTF-8 form); they are not in this file because a JSON file holding one cannot be decoded by PHP.',
  ],
  cases: [
    ...cases.map(([name, input, canonical]) => {
      if (JSON.stringify(JSON.parse(canonical)) === undefined) throw new Error(name);
      return { name, input, canonical, utf8Hex: Buffer.from(canonical, 'utf8').toString('hex') };
    }),
    ...rejected.map(([name, input]) => ({ name, input, rejected: true })),
  ],
};
writeFileSync(new URL('../cases/canonical.json', import.meta.url), `${JSON.stringify(file, null, 2)}\n`);
console.log(`canonical.json: ${file.cases.length} cases`);
