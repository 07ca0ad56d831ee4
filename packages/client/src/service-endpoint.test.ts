import { describe, expect, it } from 'vitest';
import { serviceEndpoint } from './service-endpoint.js';

describe('serviceEndpoint', () => {
  it.each([
    ['https://licences.example.com', 'https://licences.example.com/api/licence'],
    ['https://licences.example.com/', 'https://licences.example.com/api/licence'],
    ['  https://licences.example.com  ', 'https://licences.example.com/api/licence'],
    ['https://example.com/licences/', 'https://example.com/licences/api/licence'],
    ['https://example.com/licences//', 'https://example.com/licences/api/licence'],
    ['https://licences.example.com/api/licence', 'https://licences.example.com/api/licence'],
    ['https://licences.example.com/api/license', 'https://licences.example.com/api/license'],
    ['https://licences.example.com/api/licence/', 'https://licences.example.com/api/licence/'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/api/licence'],
    ['https://licences.example.com/#section', 'https://licences.example.com/api/licence'],
    ['https://licences.example.com/?tenant=a', 'https://licences.example.com/api/licence?tenant=a'],
  ])('%s -> %s', (url, endpoint) => {
    expect(serviceEndpoint(url)).toBe(endpoint);
  });

  it('never quotes the value it refuses (it may hold a secret)', () => {
    for (const url of ['https://alice:s3cret@x.fr', 'not a url s3cret', 'file:///s3cret']) {
      expect(() => serviceEndpoint(url)).toThrow(/^url: /);
      try {
        serviceEndpoint(url);
      } catch (error) {
        expect((error as Error).message).not.toContain('s3cret');
      }
    }
  });
});
