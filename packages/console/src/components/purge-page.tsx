import { useState } from 'preact/hooks';
import { useApp } from './app-context.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { PageTitle } from './page-title.js';
import { useAction } from './use-action.js';

/** The operator's purge of the request log past retention (docs/protocol.md#privacy), confirmed first. */
export function PurgePage() {
  const { t, api, succeed } = useApp();
  const { run } = useAction();
  const [open, setOpen] = useState(false);
  const purge = () =>
    run(async () => {
      const { erased } = await api.purge();
      succeed(t('purge.done', { erased }));
    });
  return (
    <>
      <PageTitle text={t('purge.title')} />
      <p>{t('purge.intro')}</p>
      <div class="actions">
        <button type="button" class="danger" onClick={() => setOpen(true)}>
          {t('purge.button')}
        </button>
      </div>
      <ConfirmDialog
        open={open}
        title={t('confirm.purge.title')}
        text={t('confirm.purge.text')}
        confirmLabel={t('confirm.purge.button')}
        onConfirm={() => void purge()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
