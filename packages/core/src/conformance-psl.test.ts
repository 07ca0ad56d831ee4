import { readExternal } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { registrableDomain } from './registrable-domain.js';
import { ValidationError } from './validation-error.js';

/**
 * The Public Suffix List's own tests (`psl/test_psl.txt`, see packages/vectors/external/README.md)
 * through our registrable-domain function, as tldts runs them (`publicSuffixListTests(getDomain)`).
 *
 * Inputs are brought to the form our pipeline hands to `registrableDomain`
 * (docs/protocol.md#host-normalisation): lower case and IDN in punycode, both done by the WHATWG
 * URL parser. Expected values get the same conversion, so `食狮.com.cn` is compared as
 * `xn--85x722f.com.cn`.
 */

interface PslCase {
  readonly line: number;
  readonly input: string | null;
  readonly expected: string | null;
}

const CALL = /^checkPublicSuffix\((null|'[^']*'), (null|'[^']*')\);$/;

function literal(text: string): string | null {
  return text === 'null' ? null : text.slice(1, -1);
}

function parsePslTests(text: string): PslCase[] {
  const cases: PslCase[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    // Lines commented out upstream (`//checkPublicSuffix('local', null);`) are not tests.
    if (!line.startsWith('checkPublicSuffix(')) return;
    const match = CALL.exec(line);
    if (match === null) throw new Error(`test_psl.txt line ${index + 1}: cannot parse ${line}`);
    cases.push({ line: index + 1, input: literal(match[1] ?? ''), expected: literal(match[2] ?? '') });
  });
  return cases;
}

/** Lower case and punycode, as the URL parser gives them (leading dots are kept by it). */
function asOurPipelineWould(name: string): string {
  return new URL(`http://${name}/`).hostname;
}

/**
 * Cases where our answer differs from the file, each with its reason. Keyed by the input as
 * written in the file. Empty today: tldts 7 ships a PSL on which every case agrees, and the four
 * leading-dot cases agree because `registrableDomain` answers null for an empty label.
 * A case added here must really disagree (checked below), so the list cannot rot.
 */
const SKIP: ReadonlyMap<string, string> = new Map<string, string>([]);

describe('Public Suffix List test_psl.txt through registrableDomain', () => {
  const cases = parsePslTests(readExternal('psl/test_psl.txt'));

  it('reads every checkPublicSuffix line of the file', () => {
    // 78 active lines; 4 more are commented out upstream (the `.local` block).
    expect(cases).toHaveLength(78);
  });

  it('refuses the null input with a ValidationError (the test file expects null)', () => {
    const nullCases = cases.filter((c) => c.input === null);
    expect(nullCases).toHaveLength(1);
    expect(nullCases[0]?.expected).toBeNull();
    expect(() => registrableDomain(null as unknown as string)).toThrow(ValidationError);
  });

  const named = cases.filter((c): c is PslCase & { input: string } => c.input !== null);

  const answer = (c: PslCase & { input: string }) => ({
    actual: registrableDomain(asOurPipelineWould(c.input)),
    expected: c.expected === null ? null : asOurPipelineWould(c.expected),
  });

  it('agrees on every case not in SKIP', () => {
    const disagreements = named
      .filter((c) => !SKIP.has(c.input))
      .map((c) => ({ line: c.line, input: c.input, ...answer(c) }))
      .filter((r) => r.actual !== r.expected);
    expect(disagreements).toEqual([]);
  });

  it('compares 77 named cases and skips none (update both counts with SKIP)', () => {
    expect(named).toHaveLength(77);
    expect(SKIP.size).toBe(0);
    expect(named.filter((c) => !SKIP.has(c.input))).toHaveLength(77);
  });

  it('lists in SKIP only cases of the file that really disagree', () => {
    // Each entry must name a case of the file on which we really differ.
    for (const [input, reason] of SKIP) {
      const c = named.find((n) => n.input === input);
      expect(c, `SKIP entry ${input} is not a case of the file`).toBeDefined();
      expect(reason.length).toBeGreaterThan(10);
      if (c !== undefined) {
        const { actual, expected } = answer(c);
        expect(actual, `SKIP entry ${input} agrees now: remove it`).not.toBe(expected);
      }
    }
  });

  it('holds the IDN cases, compared in punycode', () => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the test: any character outside ASCII
    const idn = named.filter((c) => /[^\u0000-\u007f]/.test(c.input));
    expect(idn).toHaveLength(9);
    expect(asOurPipelineWould('食狮.公司.cn')).toBe('xn--85x722f.xn--55qx5d.cn');
    expect(registrableDomain('www.xn--85x722f.xn--55qx5d.cn')).toBe('xn--85x722f.xn--55qx5d.cn');
  });
});
