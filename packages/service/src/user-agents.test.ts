import { describe, expect, it } from 'vitest';
import { DEFAULT_BLOCKED_USER_AGENTS, isBlockedUserAgent } from './user-agents.js';

describe('isBlockedUserAgent (docs/protocol.md#user-agent-filter)', () => {
  // Each library's default User-Agent, as it really sends it.
  const defaults = [
    'curl/8.5.0',
    'Wget/1.21.3',
    'python-requests/2.31.0',
    'Python-urllib/3.11',
    'Go-http-client/1.1',
    'Go-http-client/2.0',
    'Java/1.8.0_392',
    'Java-http-client/17.0.9',
    'Apache-HttpClient/4.5.14 (Java/17.0.9)',
    'okhttp/4.12.0',
    'axios/1.6.2',
    'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
    'node-fetch',
    'undici',
    'node',
    'GuzzleHttp/7',
    'libwww-perl/6.72',
    'python-httpx/0.27.0',
    'Python/3.11 aiohttp/3.9.1',
    'Ruby',
  ];
  it.each(defaults)('blocks the library default %s', (ua) => {
    expect(isBlockedUserAgent(ua)).toBe(true);
  });

  it.each([undefined, '', '   '])('blocks a missing or empty User-Agent (%j)', (ua) => {
    expect(isBlockedUserAgent(ua)).toBe(true);
  });

  it.each([
    'MonTheme/1.2 (curl)',
    'MonTheme/1.2 curl/8.5.0',
    'WordPress/6.4; https://exemple.fr',
    'Mozilla/5.0 (X11; Linux x86_64)',
    'nodejs-app/1.0',
    'NodeBB/3.0',
    'curling-club/1.0',
    'Javanaise/2',
  ])('lets a product name through even when it mentions a library: %s', (ua) => {
    expect(isBlockedUserAgent(ua)).toBe(false);
  });

  it('takes a configured list instead of the default', () => {
    expect(isBlockedUserAgent('curl/8.5.0', [])).toBe(false);
    expect(isBlockedUserAgent('MonTheme/1.2', [/^MonTheme\//])).toBe(true);
    // An empty User-Agent stays blocked whatever the list.
    expect(isBlockedUserAgent('', [])).toBe(true);
  });

  it('is not fooled by a /g pattern keeping lastIndex between calls', () => {
    const pattern = /^bot\//g;
    expect(isBlockedUserAgent('bot/1', [pattern])).toBe(true);
    expect(isBlockedUserAgent('bot/1', [pattern])).toBe(true);
  });

  it('exports a frozen default list', () => {
    expect(Object.isFrozen(DEFAULT_BLOCKED_USER_AGENTS)).toBe(true);
    expect(DEFAULT_BLOCKED_USER_AGENTS.length).toBeGreaterThanOrEqual(14);
  });
});
