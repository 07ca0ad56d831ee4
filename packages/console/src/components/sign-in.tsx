import { useState } from 'preact/hooks';
import { cleanToken } from '../session.js';
import { Field } from './field.js';
import { useI18n } from './i18n-context.js';
import { PageTitle } from './page-title.js';

/**
 * Sign in with a token (the operator's or an author's, docs/protocol.md#authors). A password field:
 * the token is not shown, not spell-checked, not autofilled. `onSignIn` checks it with `GET
 * admin/me` and keeps it in sessionStorage only.
 */
export function SignIn(props: { readonly onSignIn: (token: string) => Promise<void> }) {
  const { t } = useI18n();
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const clean = cleanToken(token);
    if (clean === '' || busy) return;
    setBusy(true);
    try {
      await props.onSignIn(clean);
      setToken('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <PageTitle text={t('signIn.title')} />
      <p>{t('signIn.intro')}</p>
      <form class="panel" aria-busy={busy} onSubmit={submit}>
        <Field label={t('signIn.token')} type="password" value={token} onValue={setToken} required verbatim />
        <div class="actions">
          <button type="submit">{t('signIn.button')}</button>
        </div>
      </form>
    </>
  );
}
