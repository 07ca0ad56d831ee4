import type { LookupAddress } from 'node:dns';
import { request } from 'node:https';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkWebhookUrl,
  isPublicAddress,
  MAX_WEBHOOK_URL_LENGTH,
  REFUSED_WEBHOOK_RANGES,
  type ResolveAll,
  safeLookup,
  WEBHOOK_PRIVATE_ADDRESS,
  WebhookAddressError,
} from './destination.js';

const strict = { allowPrivate: false };
const lax = { allowPrivate: true };

describe('isPublicAddress (docs/protocol.md#webhooks)', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.7',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    '::10.0.0.1',
    '::127.0.0.1',
    '64:ff9b::10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::8.8.8.8',
    '100::1',
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:2::1',
    '2001:10::1',
    '2001:20::1',
    '2001:db8::1',
    '2002:c000:0204::1',
    '2002:808:808::1',
    '3fff::1',
    'fc00::1',
    'fd12:3456:789a::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'fec0::1',
    'ff02::1',
    '1::1',
    '4000::1',
    'not an address',
    '',
    'localhost',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.1',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.1',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '::ffff:8.8.8.8',
    '::8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2001:4860:4860::8888',
    '2606:4700:4700::1111',
    '[2a00:1450:4007:80e::200e]',
    '2003::1',
    '3ffe:ffff::1',
  ])('accepts %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it('lists every refused range once, with its reason', () => {
    const cidrs = REFUSED_WEBHOOK_RANGES.map((range) => range.cidr);
    expect(new Set(cidrs).size).toBe(cidrs.length);
    expect(cidrs).toEqual(
      expect.arrayContaining(['127.0.0.0/8', '169.254.0.0/16', 'fc00::/7', 'fe80::/10', '::1/128']),
    );
    for (const range of REFUSED_WEBHOOK_RANGES) expect(range.name).toMatch(/\(RFC \d+\)/);
  });
});

describe('checkWebhookUrl (docs/protocol.md#webhooks)', () => {
  it('accepts a public https URL and returns it parsed', () => {
    const url = checkWebhookUrl('https://shop.example.com/hooks/licence?src=lv', strict);
    expect(url.href).toBe('https://shop.example.com/hooks/licence?src=lv');
    expect(checkWebhookUrl('https://8.8.8.8:8443/', strict).port).toBe('8443');
    expect(checkWebhookUrl('https://[2001:4860:4860::8888]/', strict).hostname).toBe('[2001:4860:4860::8888]');
  });

  it.each([
    ['http://169.254.169.254/', '169.254.169.254 is not a public address: link-local (RFC 3927)'],
    ['http://shop.example.com/', 'expected https (http only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is not a public address: link-local (RFC 3927)'],
    ['https://127.0.0.1/', '127.0.0.1 is not a public address: loopback (RFC 1122)'],
    ['https://2130706433/', '127.0.0.1 is not a public address: loopback (RFC 1122)'],
    ['https://0x7f.1/', '127.0.0.1 is not a public address: loopback (RFC 1122)'],
    ['https://[::1]/', '::1 is not a public address: loopback (RFC 4291)'],
    ['https://[::ffff:10.0.0.1]/', '10.0.0.1 is not a public address: private (RFC 1918)'],
    ['https://[64:ff9b::a9fe:a9fe]/', '64:ff9b::a9fe:a9fe is not a public address: link-local (RFC 3927)'],
    ['https://0.0.0.0:8080/', '0.0.0.0 is not a public address: this network (RFC 1122)'],
    ['https://[fd00::1]/', 'fd00::1 is not a public address: unique local, private (RFC 4193)'],
    ['https://localhost/', 'localhost is not a public address: loopback (RFC 6761)'],
    ['https://admin.localhost./', 'admin.localhost. is not a public address: loopback (RFC 6761)'],
  ])('refuses %s', (url, message) => {
    expect(() => checkWebhookUrl(url, strict)).toThrow(`url: ${message}`);
  });

  it('refuses http without allowPrivate and accepts it with', () => {
    // The refusal names the variable that lifts it, for an address as for http.
    expect(() => checkWebhookUrl('http://127.0.0.1/', strict)).toThrow(
      'url: 127.0.0.1 is not a public address: loopback (RFC 1122) (non-public addresses only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)',
    );
    expect(() => checkWebhookUrl('https://localhost/', strict)).toThrow(
      'url: localhost is not a public address: loopback (RFC 6761) (non-public addresses only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)',
    );
    expect(() => checkWebhookUrl('http://shop.example.com/', strict)).toThrow(
      'url: expected https (http only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)',
    );
    expect(checkWebhookUrl('http://127.0.0.1/', lax).href).toBe('http://127.0.0.1/');
    expect(checkWebhookUrl('http://169.254.169.254/', lax).host).toBe('169.254.169.254');
    expect(checkWebhookUrl('https://localhost:8443/hook', lax).href).toBe('https://localhost:8443/hook');
  });

  const long = `https://shop.example.com/${'a'.repeat(MAX_WEBHOOK_URL_LENGTH)}`;
  it.each([
    [42, 'url: expected a string, got number'],
    ['', 'url: expected an absolute URL'],
    ['/hooks', 'url: expected an absolute URL'],
    ['shop.example.com/hooks', 'url: expected an absolute URL'],
    ['https://', 'url: expected an absolute URL'],
    ['ftp://shop.example.com/', 'url: expected an https URL, got the scheme "ftp"'],
    ['javascript:alert(1)', 'url: expected an https URL, got the scheme "javascript"'],
    ['file:///etc/passwd', 'url: expected an https URL, got the scheme "file"'],
    ['https://user:secret-token@shop.example.com/', 'url: must not hold a user name or password'],
    ['https://user@shop.example.com/', 'url: must not hold a user name or password'],
    ['https://shop.example.com/hook#part', 'url: must not hold a fragment (#)'],
    ['https://shop.example.com/hook#', 'url: must not hold a fragment (#)'],
    [long, `url: longer than ${MAX_WEBHOOK_URL_LENGTH} characters`],
  ])('refuses %j with an exact message', (url, message) => {
    let thrown: unknown;
    try {
      checkWebhookUrl(url, lax);
    } catch (error) {
      thrown = error;
    }
    expect(thrown instanceof Error ? thrown.message : thrown).toBe(message);
  });

  it('measures the stored form too: percent-encoding can grow a URL past the limit', () => {
    const url = `https://shop.example.com/${'é'.repeat(1000)}`;
    expect(url.length).toBeLessThanOrEqual(MAX_WEBHOOK_URL_LENGTH);
    expect(() => checkWebhookUrl(url, strict)).toThrow(`url: longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  });

  it('never repeats the URL in a refusal', () => {
    for (const url of [
      'https://u:tok_SECRET@127.0.0.1/?k=tok_SECRET',
      'ftp://x/?k=tok_SECRET',
      'https://x/?k=tok_SECRET#tok_SECRET',
    ]) {
      expect(() => checkWebhookUrl(url, strict)).toThrow(/^url: (?!.*tok_SECRET)/);
    }
  });
});

const fixed =
  (addresses: LookupAddress[]): ResolveAll =>
  (_hostname, _options, callback) =>
    callback(null, addresses);

function lookupOnce(
  lookup: ReturnType<typeof safeLookup>,
  hostname: string,
  all: boolean,
): Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family: unknown }> {
  return new Promise((resolve) => {
    lookup(hostname, { all }, (error, address, family) => resolve({ error, address, family }));
  });
}

describe('safeLookup (docs/protocol.md#webhooks)', () => {
  it('refuses localhost, which resolves to loopback, naming the host and the address', async () => {
    const { error } = await lookupOnce(safeLookup(false), 'localhost', false);
    expect(error).toBeInstanceOf(WebhookAddressError);
    expect(error?.code).toBe(WEBHOOK_PRIVATE_ADDRESS);
    expect(error?.message).toMatch(
      /^webhook destination localhost resolves to (127\.0\.0\.1|::1), not a public address: loopback/,
    );
  });

  it('resolves localhost with allowPrivate, in both callback forms', async () => {
    const one = await lookupOnce(safeLookup(true), 'localhost', false);
    expect(one.error).toBeNull();
    expect(['127.0.0.1', '::1']).toContain(one.address);
    expect([4, 6]).toContain(one.family);
    const all = await lookupOnce(safeLookup(true), 'localhost', true);
    expect(all.error).toBeNull();
    expect(Array.isArray(all.address)).toBe(true);
  });

  it('refuses a name when any of its addresses is private (a rebinding name)', async () => {
    const mixed = fixed([
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ]);
    const { error } = await lookupOnce(safeLookup(false, mixed), 'rebind.example', true);
    expect(error?.message).toBe(
      'webhook destination rebind.example resolves to 10.0.0.5, not a public address: private (RFC 1918)',
    );
    const metadata = fixed([{ address: '::ffff:169.254.169.254', family: 6 }]);
    expect((await lookupOnce(safeLookup(false, metadata), 'meta.example', false)).error?.code).toBe(
      WEBHOOK_PRIVATE_ADDRESS,
    );
  });

  it('passes public addresses through, as one address or all of them', async () => {
    const addresses = [
      { address: '2606:4700:4700::1111', family: 6 },
      { address: '1.1.1.1', family: 4 },
    ];
    const lookup = safeLookup(false, fixed(addresses));
    expect(await lookupOnce(lookup, 'shop.example', false)).toEqual({
      error: null,
      address: '2606:4700:4700::1111',
      family: 6,
    });
    expect(await lookupOnce(lookup, 'shop.example', true)).toEqual({
      error: null,
      address: addresses,
      family: undefined,
    });
  });

  it('passes resolver errors on, and an empty answer as ENOTFOUND', async () => {
    const failing: ResolveAll = (_h, _o, callback) =>
      callback(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' }), []);
    expect((await lookupOnce(safeLookup(false, failing), 'nowhere.invalid', false)).error?.code).toBe('ENOTFOUND');
    expect((await lookupOnce(safeLookup(false, fixed([])), 'empty.example', false)).error?.code).toBe('ENOTFOUND');
  });
});

describe('safeLookup on a real https.request', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    server = undefined;
  });

  // A plain TCP listener on 127.0.0.1 counts what reaches it: the TLS ClientHello is the first byte.
  async function listener(): Promise<{ port: number; connections: () => number; bytes: () => number }> {
    let connections = 0;
    let bytes = 0;
    const listening = createServer((socket) => {
      connections += 1;
      socket.on('data', (chunk) => {
        bytes += chunk.length;
        socket.destroy();
      });
    });
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const address = listening.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    return { port, connections: () => connections, bytes: () => bytes };
  }

  function attempt(port: number, allowPrivate: boolean): Promise<NodeJS.ErrnoException> {
    return new Promise((resolve) => {
      const req = request(`https://localhost:${port}/`, {
        lookup: safeLookup(allowPrivate),
        method: 'POST',
        timeout: 5000,
      });
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error));
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.end('{}');
    });
  }

  it('refuses before any byte reaches the server, and connects with allowPrivate', async () => {
    const target = await listener();
    const refused = await attempt(target.port, false);
    expect(refused.code).toBe(WEBHOOK_PRIVATE_ADDRESS);
    expect(target.connections()).toBe(0);
    expect(target.bytes()).toBe(0);

    // With allowPrivate the request reaches the listener (which is no TLS server, so it then fails).
    const allowed = await attempt(target.port, true);
    expect(allowed.code).not.toBe(WEBHOOK_PRIVATE_ADDRESS);
    expect(target.connections()).toBe(1);
    expect(target.bytes()).toBeGreaterThan(0);
  });
});
