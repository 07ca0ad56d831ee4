import { describe, expect, it } from 'vitest';
import { asLang, initialLang, rememberLang } from './language.js';

function storage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('the language', () => {
  it('asLang reads the primary subtag', () => {
    expect(['fr', 'fr-CA', 'FR', 'en-GB', 'en', 'de', '', null].map(asLang)).toEqual([
      'fr',
      'fr',
      'fr',
      'en',
      'en',
      null,
      null,
      null,
    ]);
  });

  it('starts from <html lang> (set by the service from Accept-Language), English otherwise', () => {
    expect(initialLang(storage(), 'fr')).toBe('fr');
    expect(initialLang(storage(), 'en')).toBe('en');
    expect(initialLang(storage(), 'de')).toBe('en');
  });

  it('the remembered switch wins over <html lang>', () => {
    const s = storage();
    rememberLang(s, 'en');
    expect(s.items.get('licence-console.lang')).toBe('en');
    expect(initialLang(s, 'fr')).toBe('en');
    expect(initialLang(storage({ 'licence-console.lang': 'xx' }), 'fr')).toBe('fr');
  });
});
