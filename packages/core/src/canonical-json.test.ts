import { loadCanonicalVectors } from '@licence/vectors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalBytes, canonicalJson, compareCodePoints } from './canonical-json.js';
import { ValidationError } from './validation-error.js';

const vectors = loadCanonicalVectors();
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('canonicalJson (canonical.json)', () => {
  it('has the vector cases', () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    if ('rejected' in c) {
      expect(() => canonicalJson(c.input)).toThrow(ValidationError);
      return;
    }
    expect(canonicalJson(c.input)).toBe(c.canonical);
    expect(toHex(canonicalBytes(c.input))).toBe(c.utf8Hex);
  });
});

describe('canonicalJson refuses what has no shared form', () => {
  it.each([
    ['a lone high surrogate', { s: '\ud800' }, '$.s: string holds a lone surrogate (not valid UTF-8)'],
    ['a lone low surrogate', { s: 'a\udc00b' }, '$.s: string holds a lone surrogate (not valid UTF-8)'],
    ['a lone surrogate in a key', { '\ud800': 1 }, '$: string holds a lone surrogate (not valid UTF-8)'],
    ['undefined', { u: undefined }, '$.u: undefined has no JSON form'],
    ['a function', { f: () => 1 }, '$.f: function has no JSON form'],
    ['a bigint', { b: 1n }, '$.b: bigint has no JSON form'],
    ['NaN', { n: Number.NaN }, '$.n: expected an integer, got NaN'],
    ['Infinity', { n: Number.POSITIVE_INFINITY }, '$.n: expected an integer, got Infinity'],
    ['a Date', { d: new Date(0) }, '$.d: expected a plain object'],
    ['a Map', { m: new Map() }, '$.m: expected a plain object'],
    ['a float in an array', [1, 0.5], '$[1]: expected an integer, got 0.5'],
  ])('%s', (_name, input, message) => {
    expect(() => canonicalJson(input)).toThrow(ValidationError);
    expect(() => canonicalJson(input)).toThrow(message);
  });

  it('keeps a valid surrogate pair', () => {
    expect(canonicalJson({ s: '\ud83d\udd11' })).toBe('{"s":"🔑"}');
  });

  it('stops at 32 levels of nesting (and so on a cycle)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 32; i++) deep = { d: deep };
    expect(() => canonicalJson(deep)).not.toThrow();
    expect(() => canonicalJson({ d: deep })).toThrow('nested deeper than 32 levels');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(ValidationError);
  });

  it('accepts objects without a prototype and prints -0 as 0', () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.b = -0;
    bare.a = 'x';
    expect(canonicalJson(bare)).toBe('{"a":"x","b":0}');
  });
});

describe('canonicalJson properties', () => {
  const integerJson = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.string({ unit: 'binary' }),
      fc.maxSafeInteger(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.string({ unit: 'binary' }), tie('value'), { maxKeys: 5 }),
    ),
  })).value;

  it('parses back to the same value and has no whitespace outside strings', () => {
    fc.assert(
      fc.property(integerJson, (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(value);
        expect(text.replace(/"(?:[^"\\]|\\.)*"/g, '')).not.toMatch(/\s/);
      }),
    );
  });

  it('sorts keys by their UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.integer(), { minKeys: 2, maxKeys: 8 }), (record) => {
        const keys = Object.keys(JSON.parse(canonicalJson(record)) as object);
        const byBytes = [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
        // JSON.parse re-orders integer-like keys, so compare the printed order instead.
        const printed = [...canonicalJson(record).matchAll(/[{,]("(?:[^"\\]|\\.)*"):/g)].map(
          (match) => JSON.parse(match[1] ?? '""') as string,
        );
        expect(printed).toEqual(byBytes);
        expect(new Set(keys)).toEqual(new Set(Object.keys(record)));
      }),
    );
  });

  it('compareCodePoints agrees with a byte comparison of UTF-8', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
    );
  });
});
