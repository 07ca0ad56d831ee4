import { describe, expect, it } from 'vitest';
import { compileTrustProxy } from './client-ip.js';
import { isSameOrigin, pageOrigin, publicBase, requestOrigin } from './request-origin.js';
import type { ServiceRequest } from './service-types.js';

const request = (headers: Record<string, string>, extra: Partial<ServiceRequest> = {}): ServiceRequest => ({
  method: 'GET',
  path: '/buyer/x',
  headers,
  body: new Uint8Array(0),
  ip: '10.1.2.3',
  ...extra,
});

describe('requestOrigin (docs/protocol.md#buyer-links)', () => {
  it('is the scheme the adapter gives (http by default) and the Host, as a browser serialises an origin', () => {
    expect(requestOrigin(request({ host: 'Shop.Example' }), undefined)).toBe('http://shop.example');
    expect(requestOrigin(request({ host: 'shop.example:80' }), undefined)).toBe('http://shop.example');
    expect(requestOrigin(request({ host: 'shop.example:443' }, { scheme: 'https' }), undefined)).toBe(
      'https://shop.example',
    );
    expect(requestOrigin(request({ host: '127.0.0.1:8080' }), undefined)).toBe('http://127.0.0.1:8080');
    expect(requestOrigin(request({ host: '[::1]:8080' }), undefined)).toBe('http://[::1]:8080');
  });

  it('is null without a Host, or with one that is no host', () => {
    for (const host of ['', 'a b', 'shop.example/x', 'user@shop.example', 'shop.example:99999', '-a.example', 'a?b']) {
      expect(requestOrigin(request({ host }), undefined)).toBeNull();
    }
    expect(requestOrigin(request({}), undefined)).toBeNull();
  });

  it('takes the nearest proxy X-Forwarded-Proto under TRUST_PROXY only, from a trusted peer', () => {
    const headers = { host: 'shop.example', 'x-forwarded-proto': 'http, HTTPS' };
    expect(requestOrigin(request(headers), undefined)).toBe('http://shop.example');
    expect(requestOrigin(request(headers), compileTrustProxy({ hops: 1 }))).toBe('https://shop.example');
    expect(requestOrigin(request(headers), compileTrustProxy({ hops: 0 }))).toBe('http://shop.example');
    expect(requestOrigin(request(headers), compileTrustProxy({ cidrs: ['10.0.0.0/8'] }))).toBe('https://shop.example');
    expect(requestOrigin(request(headers), compileTrustProxy({ cidrs: ['192.0.2.0/24'] }))).toBe('http://shop.example');
    const odd = { host: 'shop.example', 'x-forwarded-proto': 'gopher' };
    expect(requestOrigin(request(odd, { scheme: 'https' }), compileTrustProxy({ hops: 1 }))).toBe(
      'https://shop.example',
    );
  });
});

describe('publicBase and pageOrigin', () => {
  it('prefer the public URL, else the request', () => {
    const withHost = request({ host: 'shop.example' });
    expect(publicBase('https://licences.example.com/prod', withHost, undefined)).toBe(
      'https://licences.example.com/prod',
    );
    expect(pageOrigin('https://licences.example.com/prod', withHost, undefined)).toBe('https://licences.example.com');
    expect(publicBase(null, withHost, undefined)).toBe('http://shop.example');
    expect(pageOrigin(null, withHost, undefined)).toBe('http://shop.example');
    expect(pageOrigin(null, request({}), undefined)).toBeNull();
    expect(() => publicBase(null, request({}), undefined)).toThrow('Host: expected a host name and port');
  });
});

describe('isSameOrigin', () => {
  it('is true for the expected origin only: never absent, null, another scheme, host or port', () => {
    expect(isSameOrigin('https://shop.example', 'https://shop.example')).toBe(true);
    expect(isSameOrigin('https://SHOP.example', 'https://shop.example')).toBe(true);
    for (const origin of [
      undefined,
      'null',
      '',
      'http://shop.example',
      'https://shop.example:8443',
      'https://evil.example',
    ]) {
      expect(isSameOrigin(origin, 'https://shop.example')).toBe(false);
    }
    expect(isSameOrigin('https://shop.example', null)).toBe(false);
  });
});
