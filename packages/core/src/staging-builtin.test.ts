import { readFileSync } from 'node:fs';
import { loadStagingVectors } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { BUILTIN_STAGING_HOSTS, BUILTIN_STAGING_PATTERNS } from './staging-builtin.js';
import { parseStagingPattern } from './staging-pattern.js';

describe('BUILTIN_STAGING_PATTERNS (docs/protocol.md#staging-hosts)', () => {
  it('holds normalised, distinct patterns, each with its provider and an https source', () => {
    for (const { pattern, provider, source } of BUILTIN_STAGING_PATTERNS) {
      expect(parseStagingPattern('pattern', pattern)).toBe(pattern);
      expect(provider.length).toBeGreaterThan(1);
      expect(source).toMatch(/^https:\/\/[a-z0-9.-]+\/\S*$/);
    }
    expect(new Set(BUILTIN_STAGING_HOSTS).size).toBe(BUILTIN_STAGING_PATTERNS.length);
    expect(BUILTIN_STAGING_HOSTS).toEqual(BUILTIN_STAGING_PATTERNS.map((entry) => entry.pattern));
  });

  it('never lists a Live environment (Pantheon live-* is a live site)', () => {
    expect(BUILTIN_STAGING_HOSTS.some((pattern) => pattern.startsWith('live-'))).toBe(false);
  });

  it('is the list staging.json names in its notes', () => {
    const note = loadStagingVectors().notes?.find((text) => text.startsWith('Built-in patterns: ')) ?? '';
    const listed = note
      .replace(/^Built-in patterns: /, '')
      .replace(/ \(.*$/, '')
      .split(', ');
    expect(listed).toEqual([...BUILTIN_STAGING_HOSTS]);
  });

  it('is the table of docs/protocol.md#staging-hosts, pattern, provider and source', () => {
    const protocol = readFileSync(new URL('../../../docs/protocol.md', import.meta.url), 'utf8');
    const section = protocol.split('\n## Staging hosts\n')[1]?.split('\n## ')[0] ?? '';
    for (const { pattern, provider, source } of BUILTIN_STAGING_PATTERNS) {
      const row = section.split('\n').find((line) => line.startsWith(`| \`${pattern}\``));
      expect(row, pattern).toBeDefined();
      expect(row).toContain(provider);
      expect(row).toContain(`(${source})`);
    }
  });
});
