import { describe, expect, it } from 'vitest';
import { preferredLanguage } from './accept-language.js';

// RFC 9110 12.5.4, for the console's language (docs/protocol.md#console).

describe('preferredLanguage', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['fr', 'fr'],
    ['fr-CA', 'fr'],
    ['FR-fr', 'fr'],
    ['en-GB', 'en'],
    ['de', 'en'],
    ['de, fr;q=0.5', 'fr'],
    ['en;q=0.8, fr;q=0.9', 'fr'],
    ['fr;q=0.8, en;q=0.9', 'en'],
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'fr'],
    ['en-US,en;q=0.9,fr;q=0.8', 'en'],
    // Equal q-values: the range named first.
    ['fr, en', 'fr'],
    ['en, fr', 'en'],
    ['en;q=0.5, fr;q=0.500', 'en'],
    // q=0 refuses; a malformed entry counts for nothing; * names no language.
    ['fr;q=0', 'en'],
    ['fr;q=0.000, en;q=0.1', 'en'],
    ['fr;q=2', 'en'],
    ['fr;q=0.1234', 'en'],
    ['fr;q=', 'en'],
    ['*', 'en'],
    ['fr;Q=0.7, en;q=0.6', 'fr'],
    ['  fr ;  q=0.7 ,en;q=0.6', 'fr'],
    ['12, fr', 'fr'],
  ])('%j -> %s', (header, language) => {
    expect(preferredLanguage(header, ['en', 'fr'])).toBe(language);
  });
});
