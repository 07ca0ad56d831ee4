import { loadHostVectors } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { thrown } from '../test/validation-error-support.js';
import { MAX_URL_LENGTH, normalizeHost } from './normalize-host.js';
import { ValidationError } from './validation-error.js';

function expectRefusal(url: unknown, message: string): void {
  const error = thrown(() => normalizeHost(url));
  expect(error).toBeInstanceOf(ValidationError);
  expect(error).toMatchObject({ field: 'url', message });
}

describe('normalizeHost: input checks (docs/protocol.md#host-normalisation)', () => {
  it.each([
    [42, 'number'],
    [null, 'null'],
    [undefined, 'undefined'],
    [true, 'boolean'],
    [{ url: 'exemple.fr' }, 'object'],
    [['exemple.fr'], 'array'],
  ])('refuses %j: not a string', (value, type) => {
    expectRefusal(value, `url: expected a string, got ${type}`);
  });

  it('refuses more than 2048 characters, counted before the trim', () => {
    expect(MAX_URL_LENGTH).toBe(2048);
    const path = 'exemple.fr/'.padEnd(2048, 'a');
    expect(normalizeHost(path)).toBe('exemple.fr');
    expectRefusal(`${path}a`, 'url: longer than 2048 characters');
    expectRefusal(` ${path}`, 'url: longer than 2048 characters');
  });

  it.each(['', ' ', '\t\n\r', '\u0000\u001f '])('refuses %j: empty after the trim', (value) => {
    expectRefusal(value, 'url: is empty');
  });

  // Decision (docs/protocol.md#host-normalisation trims white space): strip U+0000..U+0020 only,
  // as the WHATWG parser does, so PHP's trim($s, "\x00..\x20") gives the same result. U+00A0 is
  // not stripped; it then fails the host rules.
  it('trims C0 controls and space only', () => {
    expect(normalizeHost('\u0000\u0001 exemple.fr \u001f\u0020')).toBe('exemple.fr');
    expectRefusal('\u00a0exemple.fr', 'url: not a valid URL');
    expectRefusal('\u00a0', 'url: not a valid URL');
  });
});

describe('normalizeHost: scheme and parser (docs/protocol.md#host-normalisation)', () => {
  it('puts http:// in front of a value without scheme://', () => {
    expect(normalizeHost('localhost:3000')).toBe('localhost');
    expect(normalizeHost('exemple.fr/?u=https://x')).toBe('exemple.fr');
    expect(normalizeHost('//exemple.fr')).toBe('exemple.fr');
    // `http:exemple.fr` has no `//`: it is read as host `http`, port `exemple.fr`.
    expectRefusal('http:exemple.fr', 'url: not a valid URL');
  });

  it.each([
    ['ftp://exemple.fr', 'ftp'],
    ['FTP://exemple.fr', 'ftp'],
    ['file:///etc/passwd', 'file'],
    ['ws://exemple.fr', 'ws'],
    ['wss://exemple.fr', 'wss'],
    ['exemple.fr://x', 'exemple.fr'],
    ['chrome-extension://abc/x', 'chrome-extension'],
  ])('refuses %j: scheme %s', (url, scheme) => {
    expectRefusal(url, `url: scheme must be http or https, got ${scheme}`);
  });

  it('keeps the parser failure as the cause, with our own message', () => {
    const error = thrown(() => normalizeHost('http://'));
    expect(error).toMatchObject({ message: 'url: not a valid URL' });
    expect((error as { cause?: unknown }).cause).toBeInstanceOf(TypeError);
  });

  it.each([
    'http://user:pass@exemple.fr',
    'http://user@exemple.fr',
    'http://:pass@exemple.fr',
    'https://exemple.fr@autre.fr/',
    'exemple.fr@autre.fr',
    'mailto:contact@exemple.fr',
  ])('refuses userinfo in %j', (url) => {
    expectRefusal(url, 'url: must not hold a user name or password');
  });
});

describe('normalizeHost: host rules (docs/protocol.md#host-normalisation)', () => {
  it('removes one trailing dot, not two', () => {
    expect(normalizeHost('exemple.fr.')).toBe('exemple.fr');
    expectRefusal('exemple.fr..', 'url: host has an empty label');
  });

  it.each(['exemple..fr', '.exemple.fr', '.', 'http://a..b/'])('refuses %j: empty label', (url) => {
    expectRefusal(url, 'url: host has an empty label');
  });

  it.each(['a!b.fr', '*.exemple.fr', 'a$b.fr', "a'b.fr", 'a&b.fr', 'a+b.fr', 'a=b.fr', 'a~b.fr'])(
    'refuses %j: a character the WHATWG parser allows but no site name has',
    (url) => {
      expect(() => new URL(`http://${url}`)).not.toThrow();
      expectRefusal(url, 'url: host has a character other than a-z, 0-9, "-" and "_"');
    },
  );

  it('allows 63-character labels and 253-character hosts, not more', () => {
    const label = (c: string, n: number) => c.repeat(n);
    expect(normalizeHost(`${label('a', 63)}.fr`)).toBe(`${label('a', 63)}.fr`);
    expectRefusal(`${label('a', 64)}.fr`, 'url: host has a label longer than 63 characters');
    const host253 = [label('a', 63), label('b', 63), label('c', 63), `${label('d', 58)}.fr`].join('.');
    expect(host253).toHaveLength(253);
    expect(normalizeHost(host253)).toBe(host253);
    expect(normalizeHost(`${host253}.`)).toBe(host253);
    expectRefusal(`e.${host253}`, 'url: host is longer than 253 characters');
  });

  it('checks the label rules on the punycode form', () => {
    // 60 characters of Unicode, over 63 once in punycode: the limit applies to the DNS (ASCII) form.
    const unicode = 'éàüöçñ'.repeat(10);
    expect(unicode).toHaveLength(60);
    const ascii = new URL(`http://${unicode}.de`).hostname.split('.')[0] ?? '';
    expect(ascii.length).toBeGreaterThan(63);
    expectRefusal(`${unicode}.de`, 'url: host has a label longer than 63 characters');
  });

  it('removes one leading www. only when a dot remains', () => {
    expect(normalizeHost('www.exemple.fr')).toBe('exemple.fr');
    expect(normalizeHost('www.www.exemple.fr')).toBe('www.exemple.fr');
    expect(normalizeHost('www.fr')).toBe('www.fr');
    expect(normalizeHost('www')).toBe('www');
  });

  it('leaves IP addresses to the parser: no label rule, no www rule, IPv6 in brackets', () => {
    expect(normalizeHost('127.0.0.1.')).toBe('127.0.0.1');
    expect(normalizeHost('2130706433')).toBe('127.0.0.1');
    expect(normalizeHost('[::FFFF:127.0.0.1]:80')).toBe('[::ffff:7f00:1]');
    expectRefusal('www.127.0.0.1', 'url: not a valid URL');
    expectRefusal('http://[fe80::1%25eth0]/', 'url: not a valid URL');
  });

  it('always returns lower-case ASCII without a port', () => {
    expect(normalizeHost('HTTPS://WWW.BÜCHER.DE:8443/x')).toBe('xn--bcher-kva.de');
  });
});

describe('normalizeHost: hosts.json vectors', () => {
  const vectors = loadHostVectors();

  it('has the expected frame', () => {
    expect(vectors.consumers).toContain('@licence/core (TypeScript)');
    expect(vectors.cases.length).toBeGreaterThanOrEqual(110);
    const names = vectors.cases.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('marks exactly the cases whose url holds a non-ASCII character', () => {
    for (const c of vectors.cases) {
      expect({ name: c.name, unicode: c.unicode === true }).toEqual({
        name: c.name,
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the test: any character outside ASCII
        unicode: /[^\u0000-\u007f]/.test(c.url),
      });
    }
  });

  for (const c of vectors.cases) {
    if ('hote' in c) {
      it(`${c.name}: ${JSON.stringify(c.url).slice(0, 80)} -> ${c.hote.slice(0, 80)}`, () => {
        expect(normalizeHost(c.url)).toBe(c.hote);
      });
    } else if (c.publicSuffix === true) {
      // Refused only by the public-suffix rule (parse-host.ts): normalisation itself succeeds.
      it(`${c.name}: ${JSON.stringify(c.url)} normalises (refused later, public suffix)`, () => {
        expect(() => normalizeHost(c.url)).not.toThrow();
      });
    } else {
      it(`${c.name}: ${JSON.stringify(c.url).slice(0, 80)} is refused`, () => {
        expect(thrown(() => normalizeHost(c.url))).toBeInstanceOf(ValidationError);
      });
    }
  }
});
