import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { translator, type Translate } from '../i18n/translate.js';
import type { Lang } from '../language.js';

/** The language and its catalog, for every component, signed in or not. */
export interface I18n {
  readonly lang: Lang;
  readonly t: Translate;
}

export const I18nContext = createContext<I18n>({ lang: 'en', t: translator('en') });

export function useI18n(): I18n {
  return useContext(I18nContext);
}
