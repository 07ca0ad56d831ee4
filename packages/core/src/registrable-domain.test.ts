import { describe, expect, it } from 'vitest';
import { thrown } from '../test/validation-error-support.js';
import { registrableDomain } from './registrable-domain.js';
import { ValidationError } from './validation-error.js';

describe('registrableDomain: names (docs/protocol.md#host-normalisation, tldts with private suffixes)', () => {
  it.each([
    ['exemple.fr', 'exemple.fr'],
    ['a.b.exemple.fr', 'exemple.fr'],
    ['shop.example.co.uk', 'example.co.uk'],
    ['dev.co.uk', 'dev.co.uk'],
    ['www.ck', 'www.ck'],
    ['a.b.mm', 'a.b.mm'],
    ['xn--85x722f.xn--55qx5d.cn', 'xn--85x722f.xn--55qx5d.cn'],
  ])('%s -> %s (ICANN rules)', (hote, expected) => {
    expect(registrableDomain(hote)).toBe(expected);
  });

  it('counts the private section: two shops are two domains', () => {
    expect(registrableDomain('a.myshopify.com')).toBe('a.myshopify.com');
    expect(registrableDomain('b.myshopify.com')).toBe('b.myshopify.com');
    expect(registrableDomain('www.a.myshopify.com')).toBe('a.myshopify.com');
    expect(registrableDomain('x.github.io')).toBe('x.github.io');
  });

  it.each(['co.uk', 'myshopify.com', 'github.io', 'c.mm', 'test.ck', 'home.arpa'])(
    '%s is itself a public suffix: null',
    (hote) => {
      expect(registrableDomain(hote)).toBeNull();
    },
  );

  it.each(['localhost', 'intranet', 'fr', 'com'])('single label %s: null', (hote) => {
    expect(registrableDomain(hote)).toBeNull();
  });

  it.each(['.exemple.fr', 'exemple..fr', 'exemple.fr.', '.', ''])(
    '%j has an empty label: null (never a hote; the PSL tests expect null for a leading dot)',
    (hote) => {
      expect(registrableDomain(hote)).toBeNull();
    },
  );

  // Decision (docs/protocol.md#host-normalisation says tldts `getDomain`): names under no PSL
  // rule take the PSL's implicit `*` rule, as tldts does, including the special-use TLDs of
  // docs/protocol.md#test-hosts. Those are test hosts anyway (nothing is bound); their
  // `registrable` only fills `domaine` on the verdict.
  it.each([
    ['exemple.zzz', 'exemple.zzz'],
    ['monsite.local', 'monsite.local'],
    ['a.monsite.local', 'monsite.local'],
    ['boutique.localhost', 'boutique.localhost'],
    ['app.corp.internal', 'corp.internal'],
    ['nas.home.arpa', 'nas.home.arpa'],
    ['a.nas.home.arpa', 'nas.home.arpa'],
  ])('%s -> %s (implicit * rule, or home.arpa listed in the PSL)', (hote, expected) => {
    expect(registrableDomain(hote)).toBe(expected);
  });

  it('accepts labels the WHATWG parser lets through and tldts validation would refuse', () => {
    // tldts's own hostname check refuses a label that starts or ends with `-`; our hote allows
    // it (normalize-host.ts), so the registrable domain must still come out.
    expect(registrableDomain('-boutique-.exemple.fr')).toBe('exemple.fr');
    expect(registrableDomain('-a.fr')).toBe('-a.fr');
    expect(registrableDomain('mon_site.exemple.fr')).toBe('exemple.fr');
  });
});

describe('registrableDomain: IP addresses', () => {
  it.each(['8.8.8.8', '192.0.2.1', '0.0.0.1', '[2001:db8::1]', '[fec0::1]', '[::7f00:1]'])(
    'public address %s is its own domain',
    (hote) => {
      expect(registrableDomain(hote)).toBe(hote);
    },
  );

  it('gives an IPv4-mapped public address the IPv4 address it carries', () => {
    expect(registrableDomain('[::ffff:808:808]')).toBe('8.8.8.8');
    expect(registrableDomain('[::ffff:c000:201]')).toBe('192.0.2.1');
  });

  it.each([
    '0.0.0.0',
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.1.1',
    '100.100.0.1',
    '[::]',
    '[::1]',
    '[fd12:3456::1]',
    '[fe80::1]',
    '[::ffff:7f00:1]',
    '[::ffff:0:0]',
  ])('test-range address %s has none', (hote) => {
    expect(registrableDomain(hote)).toBeNull();
  });
});

describe('registrableDomain: input checks', () => {
  it.each([
    [null, 'hote: expected a string, got null'],
    [undefined, 'hote: expected a string, got undefined'],
    [42, 'hote: expected a string, got number'],
    [['exemple.fr'], 'hote: expected a string, got array'],
  ])('%j throws ValidationError with an exact message', (value, message) => {
    // Called from untyped code (JSON, PHP-style callers): the type check is at the boundary.
    const error = thrown(() => registrableDomain(value as unknown as string));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'hote', message });
  });
});
