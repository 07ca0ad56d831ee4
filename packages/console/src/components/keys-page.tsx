import { useId, useState } from 'preact/hooks';
import type { KeyView } from '../api-types.js';
import { useApp } from './app-context.js';
import { BuyerLink } from './buyer-link.js';
import { Field } from './field.js';
import { KeyActions } from './key-actions.js';
import { KeyDetails } from './key-details.js';
import { PageTitle } from './page-title.js';
import { useAction } from './use-action.js';

interface Found {
  /** The key as typed: kept in this component's state only, never in the URL or any storage. */
  readonly cle: string;
  readonly view: KeyView;
}

/**
 * Find a key and act on it, or make a buyer link for it while it lives. The key goes to the service as the path segment of `GET admin/keys/:cle`
 * (percent-encoded), as docs/protocol.md#administration defines; it never enters the hash route.
 */
export function KeysPage() {
  const { t, api } = useApp();
  const { busy, run } = useAction();
  const headingId = useId();
  const [input, setInput] = useState('');
  const [found, setFound] = useState<Found | null>(null);
  const find = (event: Event) => {
    event.preventDefault();
    const cle = input.trim();
    if (cle === '') return;
    void run(async () => {
      setFound(null);
      setFound({ cle, view: await api.showKey(cle) });
    });
  };
  const refresh = async () => {
    if (found !== null) setFound({ cle: found.cle, view: await api.showKey(found.cle) });
  };
  return (
    <>
      <PageTitle text={t('keys.title')} />
      <h2 id={headingId}>{t('keys.find')}</h2>
      <form class="panel" aria-busy={busy} aria-labelledby={headingId} onSubmit={find}>
        <Field label={t('keys.key')} hint={t('keys.keyHint')} value={input} onValue={setInput} required verbatim />
        <div class="actions">
          <button type="submit">{t('keys.findButton')}</button>
        </div>
      </form>
      {found === null ? null : (
        <>
          <KeyDetails view={found.view} />
          <KeyActions cle={found.cle} view={found.view} onChanged={refresh} />
          {found.view.status === 'active' ? <BuyerLink key={found.cle} cle={found.cle} hint={found.view.hint} /> : null}
        </>
      )}
    </>
  );
}
