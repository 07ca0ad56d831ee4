import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadVectors, vectorPath, type VectorName } from './vector-file.js';

const NAMES: VectorName[] = ['keys', 'hosts', 'canonical', 'signatures', 'verdicts', 'client-states', 'http'];

describe('vector files', () => {
  it('are exactly the named files', () => {
    const dir = vectorPath('keys').replace(/keys\.json$/, '');
    expect(
      readdirSync(dir)
        .filter((file) => file.endsWith('.json'))
        .sort(),
    ).toEqual(NAMES.map((name) => `${name}.json`).sort());
  });

  it.each(NAMES)('%s.json opens with what it covers and who consumes it, and names each case once', (name) => {
    const file = loadVectors<{ name?: unknown }>(name);
    expect(file.covers.length).toBeGreaterThan(40);
    expect(file.consumers.length).toBeGreaterThan(0);
    expect(Object.keys(JSON.parse(readFileSync(vectorPath(name), 'utf8')) as object).slice(0, 2)).toEqual([
      'covers',
      'consumers',
    ]);
    const names = file.cases.map((c) => c.name);
    expect(names.every((n) => typeof n === 'string' && n.length > 0)).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });

  it('hold at least 250 cases in all', () => {
    const total = NAMES.reduce((sum, name) => sum + loadVectors(name).cases.length, 0);
    expect(total).toBeGreaterThanOrEqual(250);
  });

  it('mark every non-ASCII host case, so a client without IDN support knows which to skip', () => {
    for (const c of loadVectors<{ url?: unknown; unicode?: boolean }>('hosts').cases) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the test: any character outside ASCII
      const nonAscii = typeof c.url === 'string' && /[^\x00-\x7f]/.test(c.url);
      expect(c.unicode === true, String(c.url)).toBe(nonAscii);
    }
  });

  it('mark the signing seeds TEST ONLY', () => {
    const raw = JSON.parse(readFileSync(vectorPath('signatures'), 'utf8')) as {
      keys: Record<string, { warning: string; seedText: string }>;
    };
    for (const key of Object.values(raw.keys)) {
      expect(key.warning).toBe('TEST ONLY');
      expect(key.seedText.startsWith('TEST ONLY')).toBe(true);
    }
  });
});
