import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks';
import { translator } from '../i18n/translate.js';
import { initialLang, type Lang, rememberLang } from '../language.js';
import { parseRoute } from '../routes.js';
import { AppContext, type AppContextValue } from './app-context.js';
import { Header } from './header.js';
import { I18nContext } from './i18n-context.js';
import { Notices } from './notices.js';
import { Pages } from './pages.js';
import { SignIn } from './sign-in.js';
import { useHash } from './use-hash.js';
import { NO_NOTICES, type Notices as NoticesState, useSession } from './use-session.js';

/**
 * The language: the remembered switch, else `<html lang>`; `<html lang>` follows every change, in
 * the same commit as the text (a layout effect), so the page is never read in one language while
 * marked as the other.
 */
function useLang(): [Lang, (lang: Lang) => void] {
  const [lang, setLang] = useState<Lang>(() => initialLang(localStorage, document.documentElement.lang));
  useLayoutEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const choose = (next: Lang) => {
    rememberLang(localStorage, next);
    setLang(next);
  };
  return [lang, choose];
}

/** The whole console: language, session, notices, and the page of the hash route. */
export function App({ base }: { readonly base: string }) {
  const [lang, setLang] = useLang();
  const t = useMemo(() => translator(lang), [lang]);
  const hash = useHash();
  const route = useMemo(() => parseRoute(hash), [hash]);
  const [notices, setNotices] = useState<NoticesState>(NO_NOTICES);
  const session = useSession(base, { t, lang }, setNotices);
  useEffect(() => setNotices(NO_NOTICES), [hash]);
  // Signing out on purpose starts the next session on the products page (another token may not
  // reach this one); a 401 keeps the page, to come back to it after signing in again.
  const signOut = () => {
    session.signOut();
    location.hash = '#/products';
  };
  const context: AppContextValue | null =
    session.api === null || session.me === null
      ? null
      : {
          lang,
          t,
          api: session.api,
          me: session.me,
          fail: session.fail,
          succeed: (success) => setNotices({ error: null, success }),
          clearNotices: () => setNotices(NO_NOTICES),
        };
  return (
    <I18nContext.Provider value={{ lang, t }}>
      <a class="skip-link" href="#main">
        {t('skip')}
      </a>
      <Header t={t} lang={lang} onLang={setLang} route={route} me={session.me} onSignOut={signOut} />
      <main id="main" tabIndex={-1}>
        <Notices error={notices.error} success={notices.success} />
        {session.signedIn ? null : <SignIn onSignIn={session.signIn} />}
        {session.signedIn && context === null ? <p class="loading">{t('signIn.checking')}</p> : null}
        {context === null ? null : (
          <AppContext.Provider value={context}>
            <Pages route={route} />
          </AppContext.Provider>
        )}
      </main>
    </I18nContext.Provider>
  );
}
