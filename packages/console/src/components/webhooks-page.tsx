import { useState } from 'preact/hooks';
import type { RotatedSecretView, WebhookView } from '../api-types.js';
import { formatInstant } from '../dates.js';
import { useApp } from './app-context.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { PageTitle } from './page-title.js';
import { useAction } from './use-action.js';
import { useLoad } from './use-load.js';
import { WebhookForm } from './webhook-form.js';
import { WebhookSecret } from './webhook-secret.js';
import { WebhooksTable } from './webhooks-table.js';

type Asked = { readonly action: 'delete' | 'rotate'; readonly webhook: WebhookView };

interface Rotated {
  readonly url: string;
  readonly view: RotatedSecretView;
}

/**
 * Deleting and rotating, each confirmed. A deletion takes the row and its buttons away: the focus
 * goes to the page's title, never lost to the document's start. A rotation shows the new secret
 * once (it takes the focus) and until when the previous one signs.
 */
function useEndpointActions(reload: () => void) {
  const { t, api, succeed } = useApp();
  const { run } = useAction();
  const [rotated, setRotated] = useState<Rotated | null>(null);
  const perform = ({ action, webhook }: Asked) =>
    run(async () => {
      if (action === 'delete') {
        await api.removeWebhook(webhook.id);
        if (rotated?.view.id === webhook.id) setRotated(null);
        document.querySelector<HTMLElement>('main h1')?.focus();
        succeed(t('webhooks.deleted', { url: webhook.url }));
      } else {
        setRotated(null);
        setRotated({ url: webhook.url, view: await api.rotateWebhookSecret(webhook.id) });
        succeed(t('webhooks.rotated'));
      }
      reload();
    });
  return { rotated, setRotated, perform };
}

/**
 * The webhook endpoints (docs/protocol.md#webhooks): the list, each opening its deliveries, with
 * its secret's rotation and its deletion, and the form to add one. The operator's page and an
 * author's own are the same page; the service decides what each sees.
 */
export function WebhooksPage() {
  const { t, api, lang } = useApp();
  const list = useLoad(() => api.listWebhooks(), [api]);
  const [asked, setAsked] = useState<Asked | null>(null);
  const [open, setOpen] = useState(false);
  const { rotated, setRotated, perform } = useEndpointActions(list.reload);
  const ask = (action: Asked['action']) => (webhook: WebhookView) => {
    setAsked({ action, webhook });
    setOpen(true);
  };
  const which = asked?.action === 'rotate' ? 'rotateSecret' : 'deleteWebhook';
  const url = asked?.webhook.url ?? '';
  return (
    <>
      <PageTitle text={t('webhooks.title')} />
      <p>{t('webhooks.intro')}</p>
      <WebhooksTable webhooks={list.data?.webhooks ?? null} onRotate={ask('rotate')} onDelete={ask('delete')} />
      {rotated === null ? null : (
        <WebhookSecret
          label={t('once.newSecret', { url: rotated.url })}
          secret={rotated.view.secret}
          note={t('webhooks.previousUntil', { date: formatInstant(rotated.view.previousUntil, lang) })}
          onDone={() => setRotated(null)}
        />
      )}
      <WebhookForm onCreated={list.reload} />
      <ConfirmDialog
        open={open}
        title={t(`confirm.${which}.title`, { url })}
        text={t(`confirm.${which}.text`)}
        confirmLabel={t(`confirm.${which}.button`)}
        onConfirm={() => {
          if (asked !== null) void perform(asked);
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
