import type { Translate } from '../i18n/translate.js';
import type { Lang } from '../language.js';

const LANGS: readonly { readonly lang: Lang; readonly label: string }[] = [
  { lang: 'en', label: 'EN' },
  { lang: 'fr', label: 'FR' },
];

/** The FR/EN switch: two toggle buttons, each in its own language, the current one pressed. */
export function LanguageSwitch(props: {
  readonly t: Translate;
  readonly lang: Lang;
  readonly onLang: (lang: Lang) => void;
}) {
  return (
    <fieldset class="lang-switch">
      <legend class="visually-hidden">{props.t('lang.legend')}</legend>
      {LANGS.map((item) => (
        <button
          key={item.lang}
          type="button"
          lang={item.lang}
          aria-pressed={props.lang === item.lang}
          title={item.lang === 'fr' ? 'Français' : 'English'}
          onClick={() => props.onLang(item.lang)}
        >
          {item.label}
        </button>
      ))}
    </fieldset>
  );
}
