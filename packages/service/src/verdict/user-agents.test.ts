import { describe, expect, it } from 'vitest';
import { DEFAULT_BLOCKED_USER_AGENTS, isBlockedUserAgent, LIBRARY_USER_AGENTS } from './user-agents.js';

describe('isBlockedUserAgent (docs/protocol.md#user-agent-filter)', () => {
  // Each library's default User-Agent, as it really sends it (the examples of the table, and a few
  // more spellings: other versions, the bare name).
  const defaults = [
    ...LIBRARY_USER_AGENTS.map((entry) => entry.example),
    'curl',
    'CURL/7.81.0',
    'Wget',
    'Wget/1.21.4 (linux-gnu)',
    'Go-http-client/2.0',
    'node-fetch',
    'Python/3.12 aiohttp/3.9.5',
    'aiohttp/3.10',
    'Node.js/20',
    'HTTPie',
    'PostmanRuntime/7.39.1',
    'Symfony HttpClient/Native',
    'Symfony HttpClient/Amp',
    'Faraday v1.10.3',
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
    'MonTheme/1.2 (+https://exemple.fr) python-requests/2.31.0',
    'Mozilla/5.0 (X11; Linux x86_64)',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'nodejs-app/1.0',
    'NodeBB/3.0',
    'curling-club/1.0',
    'curly-theme/1.0',
    'wgetter/2',
    'Javanaise/2',
    'Pythonista/3',
    'gotham-theme/1.0',
    'Darty/1.0',
    'Rubyist/0.1',
  ])('lets a product name through even when it mentions or starts like a library: %s', (ua) => {
    expect(isBlockedUserAgent(ua)).toBe(false);
  });

  it("lets WordPress's default through: it names the site (wp-includes/class-wp-http.php)", () => {
    expect(isBlockedUserAgent('WordPress/6.1; https://example.com')).toBe(false);
    expect(isBlockedUserAgent('WordPress/6.4.3; https://www.boutique.fr')).toBe(false);
  });

  // The clients' own default User-Agent names the product first: `<produit> (@licence/client
  // <version>)` (packages/client/src/version.ts) and `<produit> (licence-php/<version>)`
  // (packages/client-php/src/Licence.php). A product whose id is a library's name still passes.
  const productIds = LIBRARY_USER_AGENTS.map((entry) => (entry.example.split(/[/ ]/)[0] ?? '').toLowerCase())
    .filter((id) => /^[a-z0-9._-]{1,64}$/.test(id))
    .concat(['mon-theme', 'node', 'curl', 'got', 'faraday', 'typhoeus', 'thunder']);
  it.each(productIds)('lets the default User-Agent of both clients through for produit %j', (id) => {
    expect(isBlockedUserAgent(`${id} (@licence/client 0.1.0)`)).toBe(false);
    expect(isBlockedUserAgent(`${id} (licence-php/1.0.0)`)).toBe(false);
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
});

describe('LIBRARY_USER_AGENTS', () => {
  it('gives each entry a source, an example its own pattern blocks, and anchors every pattern at the start', () => {
    for (const entry of LIBRARY_USER_AGENTS) {
      expect(entry.source).toMatch(/^https:\/\/[a-z0-9.-]+\//);
      expect(entry.pattern.test(entry.example)).toBe(true);
      expect(entry.pattern.source.startsWith('^')).toBe(true);
      expect(entry.pattern.flags).toBe('i');
      // A product that names itself first and mentions the library after passes.
      expect(isBlockedUserAgent(`MonTheme/1.2 ${entry.example}`)).toBe(false);
    }
  });

  it('is the default list, frozen, with no example twice', () => {
    expect(Object.isFrozen(LIBRARY_USER_AGENTS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_BLOCKED_USER_AGENTS)).toBe(true);
    expect(DEFAULT_BLOCKED_USER_AGENTS).toEqual(LIBRARY_USER_AGENTS.map((entry) => entry.pattern));
    const examples = LIBRARY_USER_AGENTS.map((entry) => entry.example);
    expect(new Set(examples).size).toBe(examples.length);
    expect(examples.length).toBeGreaterThanOrEqual(45);
  });
});
