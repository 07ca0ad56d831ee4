import { resolve } from 'node:path';
import { isValidationError } from '@licence/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_MS } from './call-service.js';
import { checkOptions } from './licence-options.js';
import type { LicenceOptions } from './licence-options.js';

const KEY = 'ABCDE-FGHJK-MNPQR-STVWX-YZ012';
const PUBLIC_KEY = 't+BgdQhT722WYlxoHMJmOlp3AQMS2RH6uZGgkKbs/l0=';
const good: LicenceOptions = {
  cle: KEY,
  cacheDir: '/var/cache/mon-theme',
  produit: 'mon-theme',
  publicKeys: [PUBLIC_KEY],
  url: 'https://licences.example.com',
  host: 'https://www.boutique.exemple.fr/panier',
};

describe('checkOptions: what a product gets', () => {
  it('normalises the key and the host, and fills the defaults', () => {
    const config = checkOptions(good);
    expect(config).toMatchObject({
      cle: 'ABCDEFGHJKMNPQRSTVWXYZ012',
      cacheDir: '/var/cache/mon-theme',
      produit: 'mon-theme',
      endpoint: 'https://licences.example.com/api/licence',
      host: 'https://www.boutique.exemple.fr/panier',
      hote: 'boutique.exemple.fr',
      userAgent: 'mon-theme (@licence/client 0.1.0)',
      timeoutMs: DEFAULT_TIMEOUT_MS,
      crypto: 'auto',
    });
    expect(config.publicKeys).toHaveLength(1);
    expect(config.publicKeys[0]).toHaveLength(32);
    expect(typeof config.fetch).toBe('function');
    expect(Math.abs(config.clock.now() - Date.now())).toBeLessThan(60_000);
  });

  it('resolves a relative cache folder once, against the current folder', () => {
    expect(checkOptions({ ...good, cacheDir: 'var/licence' }).cacheDir).toBe(resolve('var/licence'));
  });

  it('keeps the host as given, to send, and normalises it once, to expect (docs/protocol.md#hosts-in-clients)', () => {
    expect(checkOptions({ ...good, host: 'http://www.www.boutique.fr' })).toMatchObject({
      host: 'http://www.www.boutique.fr',
      hote: 'www.boutique.fr',
    });
    expect(checkOptions({ ...good, host: 'www.www.www.boutique.fr' })).toMatchObject({
      host: 'www.www.www.boutique.fr',
      hote: 'www.www.boutique.fr',
    });
    expect(checkOptions({ ...good, host: ' boutique.exemple.fr\n' })).toMatchObject({
      host: ' boutique.exemple.fr\n',
      hote: 'boutique.exemple.fr',
    });
  });

  it('keeps what the product passes', () => {
    const fetch = async () => new Response('');
    const clock = { now: () => 5 };
    const onError = () => undefined;
    const key = new Uint8Array(32).fill(7);
    const config = checkOptions({
      ...good,
      userAgent: ' MonTheme/2.0 ',
      fetch,
      clock,
      timeoutMs: 250,
      crypto: 'noble',
      onError,
      publicKeys: [key],
    });
    expect(config).toMatchObject({ userAgent: 'MonTheme/2.0', fetch, clock, timeoutMs: 250, crypto: 'noble', onError });
    expect(config.publicKeys[0]).toEqual(key);
    // A copy: the caller's buffer may change afterwards.
    expect(config.publicKeys[0]).not.toBe(key);
  });

  it('accepts undefined for every optional option (exactOptionalPropertyTypes users)', () => {
    const config = checkOptions({
      ...good,
      userAgent: undefined,
      fetch: undefined,
      clock: undefined,
      timeoutMs: undefined,
      crypto: undefined,
      onError: undefined,
    });
    expect(config.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
  });
});

describe('checkOptions: every bad option, with its exact message', () => {
  const cases: [string, unknown, string, string][] = [
    ['options missing', undefined, 'options', 'options: expected an object, got undefined'],
    ['options an array', [], 'options', 'options: expected an object, got array'],
    [
      'cacheDir missing',
      { ...good, cacheDir: undefined },
      'cacheDir',
      'cacheDir: required: a writable folder that deploys do not wipe',
    ],
    ['cacheDir a number', { ...good, cacheDir: 1 }, 'cacheDir', 'cacheDir: expected a string, got number'],
    ['cacheDir blank', { ...good, cacheDir: '  ' }, 'cacheDir', 'cacheDir: is empty'],
    ['cacheDir with NUL', { ...good, cacheDir: '/tmp/a\0b' }, 'cacheDir', 'cacheDir: holds a NUL character'],
    [
      'produit missing',
      { ...good, produit: undefined },
      'produit',
      'produit: required: the product id the service knows (a-z, 0-9, ".", "_" and "-")',
    ],
    [
      'produit upper case',
      { ...good, produit: 'MonTheme' },
      'produit',
      'produit: expected only a-z, 0-9, ".", "_" and "-"',
    ],
    ['produit empty', { ...good, produit: '' }, 'produit', 'produit: expected 1 to 64 characters, got 0'],
    [
      'publicKeys missing',
      { ...good, publicKeys: undefined },
      'publicKeys',
      "publicKeys: required: the service's Ed25519 public keys (32 bytes, base64)",
    ],
    [
      'publicKeys a string',
      { ...good, publicKeys: PUBLIC_KEY },
      'publicKeys',
      'publicKeys: expected a non-empty array of public keys (32 bytes, base64), got string',
    ],
    [
      'publicKeys empty',
      { ...good, publicKeys: [] },
      'publicKeys',
      'publicKeys: expected a non-empty array of public keys (32 bytes, base64), got array',
    ],
    [
      'a key of 31 bytes',
      { ...good, publicKeys: [PUBLIC_KEY, Buffer.alloc(31).toString('base64')] },
      'publicKeys[1]',
      'publicKeys[1]: expected 32 bytes, got 31',
    ],
    [
      'a key of 33 raw bytes',
      { ...good, publicKeys: [new Uint8Array(33)] },
      'publicKeys[0]',
      'publicKeys[0]: expected 32 bytes, got 33',
    ],
    [
      'a key not base64',
      { ...good, publicKeys: ['not base64!'] },
      'publicKeys[0]',
      'publicKeys[0]: not canonical padded base64',
    ],
    [
      'a key a number',
      { ...good, publicKeys: [7] },
      'publicKeys[0]',
      'publicKeys[0]: expected base64 text or a Uint8Array, got number',
    ],
    [
      'url missing',
      { ...good, url: undefined },
      'url',
      'url: required: the address of your licence service, such as https://licences.example.com',
    ],
    ['url not a URL', { ...good, url: 'licences.example.com' }, 'url', 'url: not an absolute http or https URL'],
    ['url ftp', { ...good, url: 'ftp://licences.example.com' }, 'url', 'url: expected an http or https URL, got ftp:'],
    [
      'url with credentials',
      { ...good, url: 'https://user:secret@licences.example.com' },
      'url',
      'url: must not hold a user name or password (the endpoint takes no credential)',
    ],
    [
      'host missing',
      { ...good, host: undefined },
      'host',
      'host: required: the site the product runs on, as a host name or a URL',
    ],
    ['host a number', { ...good, host: 3 }, 'host', 'host: expected a string, got number'],
    ['host ftp', { ...good, host: 'ftp://exemple.fr' }, 'host', 'host: scheme must be http or https, got ftp'],
    [
      'host a public suffix',
      { ...good, host: 'co.uk' },
      'host',
      'host: host is a public suffix (co.uk) and names no site',
    ],
    [
      'userAgent empty',
      { ...good, userAgent: ' ' },
      'userAgent',
      'userAgent: is empty (the service refuses a request without one)',
    ],
    ['userAgent a number', { ...good, userAgent: 1 }, 'userAgent', 'userAgent: expected a string, got number'],
    [
      'userAgent with a newline',
      { ...good, userAgent: 'MonTheme\r\nX: y' },
      'userAgent',
      'userAgent: expected visible ASCII characters, spaces and tabs only',
    ],
    [
      'userAgent too long',
      { ...good, userAgent: 'x'.repeat(513) },
      'userAgent',
      'userAgent: expected at most 512 characters, got 513',
    ],
    ['fetch a string', { ...good, fetch: 'fetch' }, 'fetch', 'fetch: expected a function, got string'],
    [
      'clock a function',
      { ...good, clock: () => 1 },
      'clock',
      'clock: expected an object with a now() method, got function',
    ],
    ['clock without now', { ...good, clock: {} }, 'clock', 'clock: expected an object with a now() method, got object'],
    [
      'timeoutMs 0',
      { ...good, timeoutMs: 0 },
      'timeoutMs',
      'timeoutMs: expected an integer from 1 to 60000 (milliseconds), got 0',
    ],
    [
      'timeoutMs in seconds as a string',
      { ...good, timeoutMs: '6' },
      'timeoutMs',
      'timeoutMs: expected an integer from 1 to 60000 (milliseconds), got string',
    ],
    [
      'timeoutMs fractional',
      { ...good, timeoutMs: 1.5 },
      'timeoutMs',
      'timeoutMs: expected an integer from 1 to 60000 (milliseconds), got 1.5',
    ],
    [
      'crypto unknown',
      { ...good, crypto: 'openssl' },
      'crypto',
      'crypto: expected "auto", "node" or "noble", got "openssl"',
    ],
    ['onError a string', { ...good, onError: 'log' }, 'onError', 'onError: expected a function, got string'],
  ];

  it.each(cases)('%s', (_label, options, field, message) => {
    let caught: unknown;
    try {
      checkOptions(options as LicenceOptions);
    } catch (error) {
      caught = error;
    }
    expect(isValidationError(caught)).toBe(true);
    expect(caught).toMatchObject({ field, message });
  });
});

describe('checkOptions: the buyer key is the buyer input (docs/protocol.md#no-usable-key)', () => {
  it.each([
    ['missing', undefined, 'sans_cle'],
    ['null', null, 'sans_cle'],
    ['false', false, 'sans_cle'],
    ['a number', 42, 'sans_cle'],
    ['empty', '', 'sans_cle'],
    ['white space', ' \n', 'sans_cle'],
    ['only dashes', '-----', 'cle_invalide'],
    ['too short', 'ABCDE-FGHJK-MNPQR-STVWX-YZ01', 'cle_invalide'],
    ['too long', `${KEY}3`, 'cle_invalide'],
    ['with an O', 'OBCDE-FGHJK-MNPQR-STVWX-YZ012', 'cle_invalide'],
    ['over 1024 characters', ` ${'-'.repeat(1024)}`, 'cle_invalide'],
  ])('%s: never throws, and says why it cannot be used', (_name, cle, problem) => {
    expect(checkOptions({ ...good, cle: cle as string })).toMatchObject({ cle: '', keyProblem: problem });
  });

  it('a usable key has no problem', () => {
    expect(checkOptions(good)).toMatchObject({ cle: 'ABCDEFGHJKMNPQRSTVWXYZ012', keyProblem: null });
  });

  it('a bad product id or public key still throws, even with no key', () => {
    expect(() => checkOptions({ ...good, cle: '', produit: 'Mon Thème' })).toThrow(/^produit: /);
    expect(() => checkOptions({ ...good, cle: '', publicKeys: ['AAAA'] })).toThrow(/^publicKeys\[0\]: /);
  });
});
