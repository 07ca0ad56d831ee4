import { loadStagingVectors, type StagingMatchCase } from '@licence/vectors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_STAGING_HOSTS } from './staging-builtin.js';
import { isStagingHost, matchesStagingPattern } from './staging-match.js';

describe('staging.json: host cases (docs/protocol.md#staging-hosts)', () => {
  const cases = loadStagingVectors().cases.filter((c): c is StagingMatchCase => 'hote' in c);

  it('holds both outcomes, with and without patterns of its own', () => {
    expect(cases.filter((c) => c.staging && c.patterns === undefined).length).toBeGreaterThan(15);
    expect(cases.filter((c) => !c.staging && c.patterns === undefined).length).toBeGreaterThan(25);
    expect(cases.filter((c) => c.staging && c.patterns !== undefined).length).toBeGreaterThan(8);
    expect(cases.filter((c) => !c.staging && c.patterns !== undefined).length).toBeGreaterThan(8);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(isStagingHost(c.hote, [...BUILTIN_STAGING_HOSTS, ...(c.patterns ?? [])])).toBe(c.staging);
  });
});

describe('matchesStagingPattern', () => {
  it('matches whole labels from the right, with any number of labels in front', () => {
    expect(matchesStagingPattern('a.flywheelstaging.com', '*.flywheelstaging.com')).toBe(true);
    expect(matchesStagingPattern('x.a.flywheelstaging.com', '*.flywheelstaging.com')).toBe(true);
    expect(matchesStagingPattern('flywheelstaging.com', '*.flywheelstaging.com')).toBe(false);
    expect(matchesStagingPattern('notflywheelstaging.com', '*.flywheelstaging.com')).toBe(false);
  });

  it('lets the * stand for one or more characters of its one label', () => {
    expect(matchesStagingPattern('staging-abc.kinsta.cloud', 'staging-*.kinsta.cloud')).toBe(true);
    expect(matchesStagingPattern('mystaging-abc.kinsta.cloud', 'staging-*.kinsta.cloud')).toBe(false);
    expect(matchesStagingPattern('staging-.kinsta.cloud', 'staging-*.kinsta.cloud')).toBe(false);
    expect(matchesStagingPattern('staging-a.b.kinsta.cloud', 'staging-*.kinsta.cloud')).toBe(false);
    expect(matchesStagingPattern('ab', '*b.c')).toBe(false);
  });

  it('matches a pattern without * as that host and the hosts below it', () => {
    expect(matchesStagingPattern('recette.agence.fr', 'recette.agence.fr')).toBe(true);
    expect(matchesStagingPattern('a.recette.agence.fr', 'recette.agence.fr')).toBe(true);
    expect(matchesStagingPattern('agence.fr', 'recette.agence.fr')).toBe(false);
    expect(matchesStagingPattern('prerecette.agence.fr', 'recette.agence.fr')).toBe(false);
  });

  it('never matches an IP address or an empty host', () => {
    expect(matchesStagingPattern('192.0.2.1', '*.exemple.net')).toBe(false);
    expect(matchesStagingPattern('[2001:db8::1]', 'exemple.net')).toBe(false);
    expect(matchesStagingPattern('', '*.exemple.net')).toBe(false);
  });
});

describe('isStagingHost', () => {
  it('is true when any pattern matches, false for an empty list', () => {
    expect(isStagingHost('b.exemple.org', ['*.exemple.net', 'b.exemple.org'])).toBe(true);
    expect(isStagingHost('c.exemple.org', ['*.exemple.net', 'b.exemple.org'])).toBe(false);
    expect(isStagingHost('b.exemple.org', [])).toBe(false);
  });
});

describe('matchesStagingPattern: properties', () => {
  const label = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,6}[a-z0-9]$/);
  const labels = fc.array(label, { minLength: 2, maxLength: 4 });

  it('a host matches a pattern exactly when one of its label-aligned suffixes does', () => {
    fc.assert(
      fc.property(fc.array(label, { maxLength: 3 }), labels, (front, base) => {
        const pattern = base.join('.');
        const host = [...front, ...base].join('.');
        expect(matchesStagingPattern(host, pattern)).toBe(true);
        expect(matchesStagingPattern(host, `*.${pattern}`)).toBe(front.length > 0);
        // Glued to the first label of the pattern, the front label is not a label of its own.
        expect(matchesStagingPattern(`x${pattern}`, pattern)).toBe(false);
      }),
    );
  });
});
