/**
 * The console's language (docs/protocol.md#console): the user's switch, remembered in
 * localStorage, wins; otherwise the page's `<html lang>`, which the service sets from
 * Accept-Language. French and English only.
 */

export type Lang = 'en' | 'fr';

const LANG_KEY = 'licence-console.lang';

type LangStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** `fr`, `fr-CA`, `FR` are French; anything else is English. */
export function asLang(value: string | null | undefined): Lang | null {
  if (value === null || value === undefined) return null;
  const primary = value.trim().toLowerCase().split('-')[0];
  if (primary === 'fr') return 'fr';
  if (primary === 'en') return 'en';
  return null;
}

export function initialLang(storage: LangStorage, htmlLang: string): Lang {
  let stored: string | null = null;
  try {
    stored = storage.getItem(LANG_KEY);
  } catch {
    stored = null;
  }
  return asLang(stored) ?? asLang(htmlLang) ?? 'en';
}

export function rememberLang(storage: LangStorage, lang: Lang): void {
  try {
    storage.setItem(LANG_KEY, lang);
  } catch {
    // The switch still works for this page; it is just not remembered.
  }
}
