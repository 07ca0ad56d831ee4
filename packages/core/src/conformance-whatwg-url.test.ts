import { readExternalJson } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { normalizeHost } from './normalize-host.js';
import { type HostInfo, parseHost } from './parse-host.js';
import { ValidationError } from './validation-error.js';

/**
 * The WHATWG URL parser tests of web-platform-tests (`whatwg-url/urltestdata.json`, see
 * packages/vectors/external/README.md) through our host pipeline
 * (docs/protocol.md#host-normalisation).
 *
 * 1. Every case: `parseHost(input)` returns a HostInfo or throws a ValidationError, nothing else.
 * 2. Cases without a base, whose input (after the C0/space trim) starts with `scheme://`, so
 *    that we feed it to the parser unchanged:
 *    - http(s) and expected to parse: our `hote` is the case's `hostname` after our documented
 *      steps (computed below by `documentedSteps`, written apart from normalize-host.ts), or we
 *      refuse exactly when those steps refuse;
 *    - expected to fail: we refuse;
 *    - any other scheme: we refuse.
 * Node's built-in parser may lag behind a newer wpt case: such cases go in NODE_DISAGREES with
 * the reason, and are checked to still disagree.
 */

interface UrlTestCase {
  readonly input: string;
  readonly base: string | null;
  readonly failure?: true;
  readonly protocol?: string;
  readonly username?: string;
  readonly password?: string;
  readonly hostname?: string;
  readonly comment?: string;
}

const all = readExternalJson<readonly (UrlTestCase | string)[]>('whatwg-url/urltestdata.json');
// Strings in the file are section comments.
const cases = all.filter((c): c is UrlTestCase => typeof c === 'object');

/** The trim and the prefix rule of docs/protocol.md#host-normalisation, restated for the test. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the WHATWG parser trims exactly C0 controls and space
const trimmed = (input: string) => input.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
const hasSchemeAndSlashes = (input: string) => /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(trimmed(input));

/**
 * Our documented steps from a parsed URL to `hote` (docs/protocol.md#host-normalisation), applied
 * to the case's expected fields: null where they refuse. Written as a plain reading of the rules,
 * not from normalize-host.ts.
 */
function documentedSteps(c: UrlTestCase): string | null {
  if ((c.username ?? '') !== '' || (c.password ?? '') !== '') return null;
  let host = c.hostname ?? '';
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.startsWith('[') && host.endsWith(']')) return host;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return host;
  const labels = host.split('.');
  for (const label of labels) {
    if (label.length === 0 || label.length > 63) return null;
    for (const ch of label) {
      const ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '-' || ch === '_';
      if (!ok) return null;
    }
  }
  if (host.length > 253) return null;
  if (host.startsWith('www.') && host.slice(4).includes('.')) return host.slice(4);
  return host;
}

type Outcome = { readonly ok: HostInfo } | { readonly refused: ValidationError };

function outcome<T>(run: () => T): { ok: T } | { refused: ValidationError } {
  try {
    return { ok: run() };
  } catch (error) {
    if (error instanceof ValidationError) return { refused: error };
    throw error;
  }
}

/**
 * Node 20 and 22 (their ada and ICU) lag behind these newer wpt cases; Node 24 agrees with every
 * case. The lists below apply to the lines that lag, and each listed case is checked to still
 * disagree there, so a list cannot rot when a line catches up (the README names the lines CI runs).
 */
const NODE_LAGS = Number(process.versions.node.split('.')[0]) < 24;
const onLaggingNode = (entries: readonly (readonly [string, string])[]): ReadonlyMap<string, string> =>
  new Map(NODE_LAGS ? entries : []);

/**
 * wpt cases on which Node 20 and 22's parser (ada) answers differently from the expected result,
 * keyed by input.
 */
const NODE_DISAGREES: ReadonlyMap<string, string> = onLaggingNode([
  ...[
    'http://a.b.c.xn--pokxncvks',
    'http://10.0.0.xn--pokxncvks',
    'http://a.b.c.XN--pokxncvks',
    'http://a.b.c.Xn--pokxncvks',
    'http://10.0.0.XN--pokxncvks',
    'http://10.0.0.xN--pokxncvks',
  ].map(
    (input) =>
      [
        input,
        'wpt "Domain is ASCII, but a label is invalid IDNA": the URL Standard now keeps an ASCII ' +
          'xn-- label that is not valid punycode; Node 20 still refuses it',
      ] as const,
  ),
  [
    'https://xn--/',
    'wpt "U+0000 and U+FFFF in various places": the URL Standard now accepts the bare label ' +
      'xn--; Node 20 refuses it',
  ],
]);

/** Node's answer: the parsed URL, or null when its parser refuses the input. */
function nodeParses(input: string): URL | null {
  try {
    return new URL(input);
  } catch (error) {
    if (error instanceof TypeError) return null;
    throw error;
  }
}

function nodeAgrees(c: UrlTestCase): boolean {
  const parsed = nodeParses(c.input);
  return c.failure === true ? parsed === null : parsed?.hostname === c.hostname;
}

describe('WHATWG urltestdata.json through parseHost', () => {
  it('reads every case of the file', () => {
    expect(cases).toHaveLength(891);
  });

  it('never throws anything but ValidationError, on every input', () => {
    let accepted = 0;
    let refused = 0;
    for (const c of cases) {
      const result: Outcome = outcome(() => parseHost(c.input));
      if ('ok' in result) {
        accepted += 1;
        expect(result.ok.hote).toMatch(/^(?:[a-z0-9_.-]+|\[[0-9a-f:]+\])$/);
      } else {
        refused += 1;
        expect(result.refused.field).toBe('url');
      }
    }
    expect(accepted + refused).toBe(891);
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });

  const direct = cases.filter((c) => c.base === null && hasSchemeAndSlashes(c.input));
  const httpOk = direct.filter((c) => c.failure !== true && (c.protocol === 'http:' || c.protocol === 'https:'));
  const failures = direct.filter((c) => c.failure === true);
  const otherSchemes = direct.filter((c) => c.failure !== true && c.protocol !== 'http:' && c.protocol !== 'https:');

  it('sorts the direct cases into the three groups', () => {
    expect(httpOk.length + failures.length + otherSchemes.length).toBe(direct.length);
    expect({
      direct: direct.length,
      httpOk: httpOk.length,
      failures: failures.length,
      otherSchemes: otherSchemes.length,
      skipped: NODE_DISAGREES.size,
    }).toEqual({ direct: 432, httpOk: 119, failures: 188, otherSchemes: 125, skipped: NODE_LAGS ? 7 : 0 });
    // Every skipped case is an http(s) one, so 112 http(s) cases are compared (119 on Node 24).
    expect(httpOk.filter((c) => !NODE_DISAGREES.has(c.input))).toHaveLength(NODE_LAGS ? 112 : 119);
  });

  it('gives, for http(s) cases, the expected hostname after our documented steps', () => {
    const rows = httpOk
      .filter((c) => !NODE_DISAGREES.has(c.input))
      .map((c) => {
        const expected = documentedSteps(c);
        const result = outcome(() => normalizeHost(c.input));
        const actual = 'ok' in result ? result.ok : null;
        return { input: c.input, hostname: c.hostname, expected, actual };
      });
    expect(rows.filter((r) => r.actual !== r.expected)).toEqual([]);
    // How many of the compared cases our steps keep: a drift here means a rule changed.
    // The 7 cases Node 24 no longer skips are all kept.
    expect(rows.filter((r) => r.expected !== null).length).toBe(NODE_LAGS ? 96 : 103);
  });

  it('refuses every case the parser must fail', () => {
    const accepted = failures
      .filter((c) => !NODE_DISAGREES.has(c.input))
      .filter((c) => 'ok' in outcome(() => normalizeHost(c.input)))
      .map((c) => c.input);
    expect(accepted).toEqual([]);
  });

  it('refuses every other scheme', () => {
    const accepted = otherSchemes.filter((c) => 'ok' in outcome(() => normalizeHost(c.input))).map((c) => c.input);
    expect(accepted).toEqual([]);
  });

  it('lists in NODE_DISAGREES only cases on which Node really disagrees', () => {
    for (const [input, reason] of NODE_DISAGREES) {
      const c = direct.find((d) => d.input === input);
      expect(c, `${input} is not a direct case`).toBeDefined();
      expect(reason.length).toBeGreaterThan(10);
      if (c !== undefined) expect(nodeAgrees(c), `${input} agrees now: remove it`).toBe(false);
    }
  });

  it('finds Node agreeing with every direct case outside NODE_DISAGREES', () => {
    // So a refusal above is ours (our documented steps), never the parser's lag.
    const differ = direct
      .filter((c) => c.protocol === undefined || c.protocol === 'http:' || c.protocol === 'https:')
      .filter((c) => !NODE_DISAGREES.has(c.input) && !nodeAgrees(c))
      .map((c) => c.input);
    expect(differ).toEqual([]);
  });
});

interface ToAsciiCase {
  readonly input: string;
  readonly output: string | null;
  readonly comment?: string;
}

/**
 * `whatwg-url/toascii.json` (UTS #46 "domain to ASCII" as the URL Standard runs it) through
 * `normalizeHost('http://' + input + '/')`: we give the expected output after our documented
 * steps, or refuse where the output is null or our steps refuse it.
 */
const PUNYCODE_NOT_CHECKED =
  'the URL Standard now keeps an ASCII xn-- label without checking its punycode; Node 20 refuses it';
const NEWER_TABLES = 'newer Unicode/IDNA mapping tables (UTS #46 15.1) than the ICU in Node 20, which refuses it';
const CAPITAL_SHARP_S = 'UTS #46 15.1 maps capital sharp s (U+1E9E) to \u00df (xn--zca); Node 20 still maps it to "ss"';

const TOASCII_NODE_DISAGREES: ReadonlyMap<string, string> = onLaggingNode([
  ['xn--a', PUNYCODE_NOT_CHECKED],
  ['xn--a.xn--zca', PUNYCODE_NOT_CHECKED],
  ['xn--ls8h=', PUNYCODE_NOT_CHECKED],
  ['xn--1ug.example', PUNYCODE_NOT_CHECKED],
  ['xn--a-yoc', PUNYCODE_NOT_CHECKED],
  ['xn--zn7c.com', PUNYCODE_NOT_CHECKED],
  ['xn--0.com', PUNYCODE_NOT_CHECKED],
  ['look\u180eout.net', NEWER_TABLES],
  ['look\u206bout.net', NEWER_TABLES],
  ['\u04c0.com', NEWER_TABLES],
  ['\u{2f868}.com', NEWER_TABLES],
  ['\u2183.com', NEWER_TABLES],
  ['\u1e9e.com', CAPITAL_SHARP_S],
  ['\u1e9e.foo.com', CAPITAL_SHARP_S],
]);

describe('WHATWG toascii.json through normalizeHost', () => {
  const file = readExternalJson<readonly (ToAsciiCase | string)[]>('whatwg-url/toascii.json');
  const toAscii = file.filter((c): c is ToAsciiCase => typeof c === 'object');

  it('reads every case and skips only cases on which Node really disagrees', () => {
    expect(toAscii).toHaveLength(87);
    expect(TOASCII_NODE_DISAGREES.size).toBe(NODE_LAGS ? 14 : 0);
    for (const [input, reason] of TOASCII_NODE_DISAGREES) {
      const c = toAscii.find((t) => t.input === input);
      expect(c, `${input} is not a case of toascii.json`).toBeDefined();
      expect(reason.length).toBeGreaterThan(10);
      const node = nodeParses(`http://${input}/`)?.hostname ?? null;
      expect(node, `${input} agrees now: remove it`).not.toBe(c?.output);
    }
  });

  it('gives the expected output after our documented steps, or refuses', () => {
    const compared = toAscii.filter((c) => !TOASCII_NODE_DISAGREES.has(c.input));
    expect(compared).toHaveLength(NODE_LAGS ? 73 : 87);
    const wrong = compared
      .map((c) => {
        const expected = c.output === null ? null : documentedSteps({ input: c.input, base: null, hostname: c.output });
        const result = outcome(() => normalizeHost(`http://${c.input}/`));
        const actual = 'ok' in result ? result.ok : null;
        return { input: c.input, output: c.output, expected, actual };
      })
      .filter((r) => r.actual !== r.expected);
    expect(wrong).toEqual([]);
  });
});
