import { loadHostVectors } from '@licence/vectors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thrown } from '../test/validation-error-support.js';
import { type HostInfo, parseHost } from './parse-host.js';
import { ValidationError } from './validation-error.js';

describe('parseHost (docs/protocol.md#host-normalisation, #test-hosts)', () => {
  it('gives the host, its registrable domain and whether it is a test host', () => {
    expect(parseHost('https://www.boutique.exemple.fr/panier')).toEqual({
      hote: 'boutique.exemple.fr',
      registrable: 'exemple.fr',
      test: false,
    });
    expect(parseHost('dev.exemple.fr:8080')).toEqual({
      hote: 'dev.exemple.fr',
      registrable: 'exemple.fr',
      test: true,
    });
    expect(parseHost('localhost:3000')).toEqual({
      hote: 'localhost',
      registrable: null,
      test: true,
    });
  });

  it.each([
    ['co.uk', 'co.uk'],
    ['https://myshopify.com/', 'myshopify.com'],
    ['www.github.io', 'github.io'],
    ['c.mm', 'c.mm'],
  ])('refuses %j: the host is a public suffix', (url, hote) => {
    const error = thrown(() => parseHost(url));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      field: 'url',
      message: `url: host is a public suffix (${hote}) and names no site`,
    });
  });

  it('checks single labels before the public-suffix rule', () => {
    // `fr` and `com` are public suffixes too, but single labels are test hosts
    // (docs/protocol.md#test-hosts).
    expect(parseHost('fr')).toEqual({ hote: 'fr', registrable: null, test: true });
    expect(parseHost('com')).toEqual({ hote: 'com', registrable: null, test: true });
  });

  it('passes normalisation errors through unchanged', () => {
    expect(thrown(() => parseHost(42))).toMatchObject({
      field: 'url',
      message: 'url: expected a string, got number',
    });
    expect(thrown(() => parseHost('ftp://x.fr'))).toMatchObject({
      message: 'url: scheme must be http or https, got ftp',
    });
  });
});

describe('parseHost: hosts.json vectors', () => {
  const { cases } = loadHostVectors();

  it('holds both outcomes and every kind of case the brief lists', () => {
    expect(cases.filter((c) => 'rejected' in c).length).toBeGreaterThan(20);
    expect(cases.filter((c) => 'hote' in c && c.test).length).toBeGreaterThan(20);
    expect(cases.filter((c) => 'hote' in c && !c.test).length).toBeGreaterThan(20);
    const bySuffix = cases.filter((c) => 'rejected' in c && c.publicSuffix === true);
    expect(bySuffix.length).toBeGreaterThan(3);
    expect(cases.filter((c) => c.unicode === true).length).toBeGreaterThan(5);
  });

  for (const c of cases) {
    const label = JSON.stringify(c.url).slice(0, 80);
    if ('hote' in c) {
      it(`${c.name}: ${label}`, () => {
        expect(parseHost(c.url)).toEqual({
          hote: c.hote,
          registrable: c.registrable,
          test: c.test,
        });
      });
    } else {
      it(`${c.name}: ${label} is refused`, () => {
        const error = thrown(() => parseHost(c.url));
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ field: 'url' });
        const message = (error as ValidationError).message;
        expect(message.startsWith('url: host is a public suffix')).toBe(c.publicSuffix === true);
      });
    }
  }
});

describe('parseHost: properties', () => {
  const outcome = (url: string): HostInfo | ValidationError => {
    try {
      return parseHost(url);
    } catch (error) {
      // Anything but a ValidationError fails the property: rethrow it to fast-check.
      if (error instanceof ValidationError) return error;
      throw error;
    }
  };

  const checkOutcome = (url: string): void => {
    const result = outcome(url);
    if (result instanceof ValidationError) {
      expect(result.field).toBe('url');
      expect(result.message.startsWith('url: ')).toBe(true);
      return;
    }
    // `hote` is lower-case ASCII: letters, digits, `-`, `_`, `.`, or an IPv6 address in brackets.
    expect(result.hote).toMatch(/^(?:[a-z0-9_.-]+|\[[0-9a-f:]+\])$/);
    expect(result.hote.length).toBeLessThanOrEqual(253);
    if (result.registrable !== null && !result.registrable.startsWith('[')) {
      // A name's registrable domain is a label-aligned suffix of it (IPv4-mapped IPv6 aside).
      const isSelf = result.hote === result.registrable;
      const isSuffix = result.hote.endsWith(`.${result.registrable}`);
      const isMappedIpv4 = result.hote.startsWith('[::ffff:');
      expect(isSelf || isSuffix || isMappedIpv4).toBe(true);
    }
    if (!result.test) expect(result.registrable).not.toBeNull();
  };

  it('never throws anything but ValidationError, on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), checkOutcome), {
      numRuns: 2000,
    });
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), checkOutcome), {
      numRuns: 2000,
    });
  });

  it('never throws anything but ValidationError, on URL-shaped strings', () => {
    const webUrl = fc.webUrl({ withQueryParameters: true, withFragments: true });
    fc.assert(fc.property(webUrl, checkOutcome), { numRuns: 2000 });
    // Hosts built from characters the rules care about: dots, www, brackets, digits, IDN.
    const piece = fc.constantFrom(
      '.',
      'www',
      'dev',
      'xn--',
      '[',
      ']',
      ':',
      '::',
      'ffff',
      '0',
      '1',
      '127',
      '0x',
      'a',
      'Z',
      'ü',
      '。',
      '%2e',
      '%',
      '@',
      '\\',
      '/',
      '-',
      '_',
      '!',
      ' ',
      '\t',
      'local',
      'co',
      'uk',
      'fr',
    );
    const host = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
    const prefix = fc.constantFrom('', 'http://', 'https://', '//', 'ftp://');
    fc.assert(
      fc.property(prefix, host, (p, h) => checkOutcome(p + h)),
      { numRuns: 3000 },
    );
  });

  it('is stable: normalising the hote again gives the same HostInfo', () => {
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        const first = outcome(url);
        if (first instanceof ValidationError) return;
        // `www.` is removed once: a hote that still starts with `www.` may lose it again, which is
        // the documented "one leading www." rule, so such hosts are left out of this property.
        if (first.hote.startsWith('www.')) return;
        expect(outcome(first.hote)).toEqual(first);
      }),
      { numRuns: 1000 },
    );
  });
});
