import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadMessageVectors } from './messages.js';
import { loadVectors, vectorPath, type VectorName } from './vector-file.js';

const NAMES: VectorName[] = [
  'keys',
  'hosts',
  'canonical',
  'signatures',
  'verdicts',
  'client-states',
  'messages',
  'http',
  'staging',
];

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

  it('pin every motif, state and language of message(), each domains list length, with and without a quand', () => {
    const cases = loadMessageVectors().cases;
    const refusals = cases.filter((c) => !c.donnees.ok && c.state !== 'lapsed' && c.state !== 'no_key');
    const domains = (domaine: string) => Math.min(domaine === '' ? 0 : domaine.split(', ').length, 3);
    expect(new Set(refusals.map((c) => c.donnees.motif))).toEqual(
      new Set(['autre_domaine', 'transfert', 'regeneration', 'revocation', 'expiree', 'inconnue', 'suspendue']),
    );
    expect(new Set(cases.map((c) => c.state))).toEqual(new Set(['fresh', 'refreshed', 'grace', 'lapsed', 'no_key']));
    expect(cases.find((c) => c.state === 'lapsed')?.donnees.motif).toBe('reseau');
    const noKey = cases.filter((c) => c.state === 'no_key');
    expect(new Set(noKey.map((c) => c.donnees.motif))).toEqual(new Set(['sans_cle', 'cle_invalide']));
    expect(cases.some((c) => c.donnees.ok && c.donnees.essai)).toBe(true);
    expect(new Set(refusals.map((c) => domains(c.donnees.domaine)))).toEqual(new Set([0, 1, 2, 3]));
    expect(new Set(refusals.map((c) => c.donnees.quand === ''))).toEqual(new Set([true, false]));
    // Every sentence in both languages: each case has its twin in the other one.
    const twin = (c: (typeof cases)[number]) =>
      `${c.name.replace(/ \((fr|en)\)$/, '')}|${c.lang === 'fr' ? 'en' : 'fr'}`;
    const keys = new Set(cases.map((c) => `${c.name.replace(/ \((fr|en)\)$/, '')}|${c.lang}`));
    expect(cases.filter((c) => !keys.has(twin(c))).map((c) => c.name)).toEqual([]);
  });

  it('pin, in staging.json, a host that matches and one that does not for every built-in pattern', () => {
    const file = loadVectors<{ hote?: string; patterns?: string[]; staging?: boolean }>('staging');
    const builtins = file.notes?.find((note) => note.startsWith('Built-in patterns: ')) ?? '';
    const patterns = builtins
      .replace(/^Built-in patterns: /, '')
      .replace(/ \(.*$/, '')
      .split(', ');
    expect(patterns.length).toBeGreaterThan(10);
    const alone = file.cases.filter((c) => c.hote !== undefined && c.patterns === undefined);
    for (const pattern of patterns) {
      // The part after the wildcard label, which every matching host ends with.
      const base = pattern.split('.').slice(1).join('.');
      const about = alone.filter((c) => c.hote?.endsWith(base));
      expect(
        about.some((c) => c.staging === true),
        pattern,
      ).toBe(true);
      expect(
        about.some((c) => c.staging === false),
        pattern,
      ).toBe(true);
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
