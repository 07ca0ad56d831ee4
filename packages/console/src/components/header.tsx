import type { MeView } from '../api-types.js';
import type { Translate } from '../i18n/translate.js';
import type { Lang } from '../language.js';
import { currentOf, navItems } from '../nav-items.js';
import type { Route } from '../routes.js';
import { LanguageSwitch } from './language-switch.js';

export interface HeaderProps {
  readonly t: Translate;
  readonly lang: Lang;
  readonly onLang: (lang: Lang) => void;
  readonly route: Route;
  /** Null while signed out: no navigation then. */
  readonly me: MeView | null;
  readonly onSignOut: () => void;
}

function Nav({ t, me, route }: { readonly t: Translate; readonly me: MeView; readonly route: Route }) {
  return (
    <nav aria-label={t('nav.label')}>
      <ul>
        {navItems(me).map((item) => (
          <li key={item.href}>
            <a href={item.href} aria-current={currentOf(item, route)}>
              {t(item.label)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The banner: the console's name, the navigation, the language switch, who is signed in and Sign out. */
export function Header(props: HeaderProps) {
  const { t, me } = props;
  return (
    <header class="banner">
      <div class="banner-top">
        <p class="brand">{t('app.name')}</p>
        <LanguageSwitch t={t} lang={props.lang} onLang={props.onLang} />
      </div>
      {me === null ? null : (
        <div class="banner-bottom">
          <Nav t={t} me={me} route={props.route} />
          <div class="who">
            <span>{me.role === 'operator' ? t('who.operator') : t('who.author', { name: me.author.name })}</span>
            <button type="button" class="secondary" onClick={props.onSignOut}>
              {t('signOut.button')}
            </button>
          </div>
        </div>
      )}
    </header>
  );
}
