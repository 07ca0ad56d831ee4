import { useId, useState } from 'preact/hooks';
import type { TokenView } from '../api-types.js';
import { useApp } from './app-context.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { Field } from './field.js';
import { PageTitle } from './page-title.js';
import { ShownOnce } from './shown-once.js';
import { TokensTable } from './tokens-table.js';
import { useAction } from './use-action.js';
import { useLoad } from './use-load.js';

function TokenForm(props: { readonly author: string; readonly onCreated: () => void }) {
  const { t, api, succeed } = useApp();
  const { busy, run } = useAction();
  const headingId = useId();
  const [label, setLabel] = useState('');
  const [token, setToken] = useState<string | null>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      setToken(null);
      const created = await api.createAuthorToken(props.author, label.trim() || undefined);
      setToken(created.token);
      setLabel('');
      succeed(t('tokens.createdDone'));
      props.onCreated();
    });
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('tokens.create')}</h2>
      <form class="panel" aria-busy={busy} onSubmit={submit}>
        <Field
          label={t('tokens.labelField')}
          hint={t('tokens.labelHint')}
          value={label}
          onValue={setLabel}
          maxLength={100}
        />
        <div class="actions">
          <button type="submit">{t('tokens.createButton')}</button>
        </div>
      </form>
      {token === null ? null : <ShownOnce label={t('once.token')} value={token} onDone={() => setToken(null)} />}
    </section>
  );
}

/**
 * An author's tokens (docs/protocol.md#authors): the operator's view of any author, or an author's
 * own. Deleting one is confirmed: whatever uses it stops at once.
 */
export function TokensPage({ author }: { readonly author: string }) {
  const { t, api, me, succeed } = useApp();
  const { run } = useAction();
  const list = useLoad(() => api.listAuthorTokens(author), [api, author]);
  const [doomed, setDoomed] = useState<TokenView | null>(null);
  const [chosen, setChosen] = useState<TokenView | null>(null);
  const remove = () =>
    run(async () => {
      if (chosen === null) return;
      await api.revokeAuthorToken(author, chosen.id);
      succeed(t('tokens.deleted', { name: chosen.label ?? chosen.id }));
      list.reload();
    });
  const ask = (token: TokenView) => {
    setChosen(token);
    setDoomed(token);
  };
  return (
    <>
      <PageTitle text={me.role === 'author' ? t('tokens.ownTitle') : t('tokens.title', { id: author })} />
      <TokensTable tokens={list.data?.tokens ?? null} onDelete={ask} />
      <TokenForm author={author} onCreated={list.reload} />
      <ConfirmDialog
        open={doomed !== null}
        title={t('confirm.deleteToken.title', { name: chosen?.label ?? chosen?.id ?? '' })}
        text={t('confirm.deleteToken.text')}
        confirmLabel={t('confirm.deleteToken.button')}
        onConfirm={() => void remove()}
        onClose={() => setDoomed(null)}
      />
    </>
  );
}
