import { loadStagingVectors, type StagingPatternCase } from '@licence/vectors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectValidationError } from '../test/validation-error-support.js';
import { matchesStagingPattern } from './staging-match.js';
import {
  MAX_STAGING_PATTERNS,
  parseStagingList,
  parseStagingPattern,
  parseStagingPatterns,
} from './staging-pattern.js';
import { ValidationError } from './validation-error.js';

describe('staging.json: pattern cases (docs/protocol.md#staging-hosts)', () => {
  const cases = loadStagingVectors().cases.filter((c): c is StagingPatternCase => 'pattern' in c);

  it('holds both outcomes', () => {
    expect(cases.filter((c) => 'normalised' in c).length).toBeGreaterThan(8);
    expect(cases.filter((c) => 'rejected' in c).length).toBeGreaterThan(25);
  });

  for (const c of cases) {
    if ('normalised' in c) {
      it(`${c.name}: ${JSON.stringify(c.pattern).slice(0, 60)}`, () => {
        expect(parseStagingPattern('staging', c.pattern)).toBe(c.normalised);
        // A normalised pattern is a fixed point: the form the store keeps parses to itself.
        expect(parseStagingPattern('staging', c.normalised)).toBe(c.normalised);
      });
    } else {
      it(`${c.name}: ${JSON.stringify(c.pattern).slice(0, 60)} is refused`, () => {
        expect(() => parseStagingPattern('staging', c.pattern)).toThrow(ValidationError);
      });
    }
  }
});

describe('parseStagingPattern: exact messages', () => {
  it.each([
    ['*.com', 'staging: "*.com" needs at least two labels after the wildcard label'],
    ['*', 'staging: "*" needs at least two labels after the wildcard label'],
    ['localhost', 'staging: "localhost" needs at least two labels'],
    ['**.exemple.net', 'staging: "**.exemple.net" holds more than one "*"'],
    ['a.*.exemple.net', 'staging: "a.*.exemple.net" has a "*" outside its leftmost label'],
    ['a..exemple.net', 'staging: "a..exemple.net" has an empty label'],
    ['-a.exemple.net', 'staging: "-a.exemple.net" has a label that starts or ends with "-"'],
    ['*-.exemple.net', 'staging: "*-.exemple.net" has a label that starts or ends with "-"'],
    ['exemple_net.fr', 'staging: "exemple_net.fr" holds a character other than a-z, 0-9, "-", "." and "*"'],
    [
      '*.münchen.de',
      'staging: "*.münchen.de" holds a non-ASCII character: write an internationalised name in punycode (xn--)',
    ],
    ['192.0.2.1', 'staging: "192.0.2.1" ends in a number: an IP address, not a host name'],
    [`*.${'a'.repeat(64)}.net`, `staging: "*.${'a'.repeat(64)}.net" has a label longer than 63 characters`],
  ])('%j', (pattern, message) => {
    expectValidationError(() => parseStagingPattern('staging', pattern), 'staging', message);
  });

  it('names its field and the type of a value that is not a string', () => {
    expectValidationError(
      () => parseStagingPattern('staging', 42),
      'staging',
      'staging: expected a string, got number',
    );
    expectValidationError(() => parseStagingPattern('motif', null), 'motif', 'motif: expected a string, got null');
  });

  it('says an empty pattern is empty, blanks and a lone dot included', () => {
    for (const empty of ['', '   ', '.', ' . ']) {
      expectValidationError(
        () => parseStagingPattern('staging', empty),
        'staging',
        'staging: expected a host name pattern, got an empty string',
      );
    }
  });

  it('gives the length of a pattern that is too long rather than quoting it', () => {
    const long = `${'a'.repeat(250)}.exemple.net`;
    expectValidationError(
      () => parseStagingPattern('staging', long),
      'staging',
      'staging: a pattern is at most 253 characters, got 262',
    );
  });

  it('lower-cases ASCII letters only', () => {
    // U+212A KELVIN SIGN lower-cases to `k` with String#toLowerCase: refused, not turned into kinsta.
    expect(() => parseStagingPattern('staging', '*.\u212Ainsta.cloud')).toThrow(/non-ASCII/);
    expect(parseStagingPattern('staging', '*.KINSTA.Cloud')).toBe('*.kinsta.cloud');
  });
});

describe('parseStagingPatterns', () => {
  it('parses each pattern, drops duplicates after normalisation and keeps the first in place', () => {
    expect(
      parseStagingPatterns('staging', ['B.exemple.net', '*.a.exemple.net', 'b.exemple.net.', ' *.A.exemple.net']),
    ).toEqual(['b.exemple.net', '*.a.exemple.net']);
    expect(parseStagingPatterns('staging', [])).toEqual([]);
  });

  it('takes at most 50 patterns, counted as given', () => {
    const many = Array.from({ length: MAX_STAGING_PATTERNS }, (_, i) => `*.s${i}.exemple.net`);
    expect(parseStagingPatterns('staging', many)).toHaveLength(50);
    expectValidationError(
      () => parseStagingPatterns('staging', [...many, 'x.exemple.net']),
      'staging',
      'staging: at most 50 patterns, got 51',
    );
  });

  it('refuses what is not an array, and names the field on a bad item', () => {
    expectValidationError(
      () => parseStagingPatterns('staging', '*.exemple.net'),
      'staging',
      'staging: expected an array of host name patterns, got string',
    );
    expectValidationError(
      () => parseStagingPatterns('staging', ['a.exemple.net', '*.com']),
      'staging',
      'staging: "*.com" needs at least two labels after the wildcard label',
    );
    expectValidationError(
      () => parseStagingPatterns('staging', [7]),
      'staging',
      'staging: expected a string, got number',
    );
  });
});

describe('parseStagingList (LICENCE_STAGING_HOSTS)', () => {
  const field = 'LICENCE_STAGING_HOSTS';

  it('reads a comma list, trimming blanks around entries', () => {
    expect(parseStagingList(field, ' *.recette.agence.fr ,preview-*.Exemple.net,*.recette.agence.fr')).toEqual([
      '*.recette.agence.fr',
      'preview-*.exemple.net',
    ]);
    expect(parseStagingList(field, 'a.exemple.net')).toEqual(['a.exemple.net']);
  });

  it('takes an empty or blank text as no pattern at all', () => {
    expect(parseStagingList(field, '')).toEqual([]);
    expect(parseStagingList(field, '  ')).toEqual([]);
  });

  it('refuses an empty entry, naming its position', () => {
    expectValidationError(
      () => parseStagingList(field, 'a.exemple.net,,b.exemple.net'),
      field,
      `${field}: entry 2 of the comma-separated list is empty`,
    );
    expectValidationError(
      () => parseStagingList(field, 'a.exemple.net, '),
      field,
      `${field}: entry 2 of the comma-separated list is empty`,
    );
  });

  it('refuses a bad pattern with the message of parseStagingPattern, and more than 50 entries', () => {
    expectValidationError(
      () => parseStagingList(field, 'a.exemple.net,*.com'),
      field,
      `${field}: "*.com" needs at least two labels after the wildcard label`,
    );
    const many = Array.from({ length: 51 }, (_, i) => `s${i}.exemple.net`).join(',');
    expectValidationError(() => parseStagingList(field, many), field, `${field}: at most 50 patterns, got 51`);
    expectValidationError(() => parseStagingList(field, 3), field, `${field}: expected a string, got number`);
  });
});

describe('parseStagingPattern: properties', () => {
  const piece = fc.constantFrom('a', 'b', 'z9', 'xn--p1ai', '-', '*', '.', '..', ' ', 'A', 'é', '_', '0', 'com', '0x1');
  const patternLike = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));

  it('throws nothing but ValidationError, and returns a fixed point that a host can match', () => {
    fc.assert(
      fc.property(fc.oneof(patternLike, fc.string({ maxLength: 30 })), (text) => {
        let pattern: string;
        try {
          pattern = parseStagingPattern('staging', text);
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
          return;
        }
        expect(parseStagingPattern('staging', pattern)).toBe(pattern);
        expect(pattern).toMatch(/^[a-z0-9*-]+(?:\.[a-z0-9-]+)+$/);
        // Replacing the `*` by one letter gives a host the pattern matches.
        expect(matchesStagingPattern(pattern.replace('*', 'q'), pattern)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
