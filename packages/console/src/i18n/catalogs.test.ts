import { describe, expect, it } from 'vitest';
import { en } from './en.js';
import { fr } from './fr.js';
import { placeholders } from './translate.js';

const CATALOGS = { en, fr } as const;

describe('the catalogs', () => {
  it('have the same keys', () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
  });

  it.each(Object.entries(CATALOGS))('%s: no string is empty or padded with white space', (_lang, catalog) => {
    const bad = Object.entries(catalog).filter(([, text]) => text.trim() === '' || text.trim() !== text);
    expect(bad).toEqual([]);
  });

  it('use the same {placeholders} for each key', () => {
    const differ = Object.keys(en).filter((key) => {
      const k = key as keyof typeof en;
      return placeholders(en[k]).join() !== placeholders(fr[k]).join();
    });
    expect(differ).toEqual([]);
  });

  it('French puts a no-break space, never a plain one, before : ? ! ; and inside « »', () => {
    const bad = Object.entries(fr).filter(([, text]) => / [:?!;»]|« /.test(text));
    expect(bad).toEqual([]);
  });

  it('French is not English left untranslated, apart from words both languages share', () => {
    // "Webhooks" and "URL" are French words too.
    const shared = new Set(['Installations', 'Sites', 'Actions', 'Total', 'Active', '{days} jours', 'Webhooks', 'URL']);
    const same = Object.keys(en).filter((key) => {
      const k = key as keyof typeof en;
      return en[k] === fr[k] && !shared.has(en[k]);
    });
    expect(same).toEqual([]);
  });
});
