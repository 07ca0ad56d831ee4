import { isBlockedUserAgent } from '@licence/service';
import { describe, expect, it } from 'vitest';
import manifest from '../package.json';
import { CLIENT_VERSION, defaultUserAgent } from './version.js';

describe('version and User-Agent', () => {
  it('is the version of package.json', () => {
    expect(CLIENT_VERSION).toBe(manifest.version);
  });

  it('names the product first, and the service lets it through (docs/protocol.md#user-agent-filter)', () => {
    expect(defaultUserAgent('mon-theme')).toBe(`mon-theme (@licence/client ${CLIENT_VERSION})`);
    // Even products named like the libraries whose default agents are refused.
    for (const produit of ['mon-theme', 'node', 'curl', 'undici', 'axios', 'java', 'bun', 'deno']) {
      expect(isBlockedUserAgent(defaultUserAgent(produit)), produit).toBe(false);
    }
  });
});
