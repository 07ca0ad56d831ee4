import { useEffect, useState } from 'preact/hooks';
import type { WebhookDeliveryView } from '../api-types.js';
import { formatInstant } from '../dates.js';
import { productPageState } from '../product-page-state.js';
import { routeHref } from '../routes.js';
import { replaceDelivery } from '../webhook-deliveries.js';
import { useApp } from './app-context.js';
import { DeliveriesTable } from './deliveries-table.js';
import { PageTitle } from './page-title.js';
import { useAction } from './use-action.js';
import { useLoad } from './use-load.js';

/** The endpoint's URL and events, from the list (the deliveries' answer names its id only). */
function EndpointSummary({ id }: { readonly id: string }) {
  const { t, api } = useApp();
  const list = useLoad(() => api.listWebhooks(), [api]);
  const webhook = list.data?.webhooks.find((w) => w.id === id);
  if (webhook === undefined) return null;
  return (
    <dl class="facts">
      <dt>{t('deliveries.endpoint')}</dt>
      <dd class="url">{webhook.url}</dd>
      <dt>{t('webhooks.events')}</dt>
      <dd>
        <ul class="events">
          {webhook.events.map((event) => (
            <li key={event}>
              <code>{event}</code>
            </li>
          ))}
        </ul>
      </dd>
    </dl>
  );
}

function BackLink() {
  const { t } = useApp();
  return (
    <p>
      <a href={routeHref({ page: 'webhooks' })}>{t('deliveries.back')}</a>
    </p>
  );
}

/**
 * The deliveries shown, refreshed on request (they change as the deliverer works, in the background),
 * and a retry: the delivery is due again now; its row shows the answer, pending with its next attempt.
 */
function useDeliveries(id: string, loaded: readonly WebhookDeliveryView[] | null) {
  const { t, lang, api, succeed } = useApp();
  const { busy, run } = useAction();
  const [shown, setShown] = useState(loaded);
  useEffect(() => setShown(loaded), [loaded]);
  const refresh = () =>
    run(async () => {
      const view = await api.webhookDeliveries(id);
      setShown(view.deliveries);
      succeed(t('deliveries.refreshed', { count: view.deliveries.length }));
    });
  const retry = (delivery: WebhookDeliveryView) =>
    run(async () => {
      const updated = await api.retryWebhookDelivery(id, delivery.id);
      setShown((list) => (list === null ? list : replaceDelivery(list, updated)));
      const date = updated.nextAttempt === null ? '' : formatInstant(updated.nextAttempt, lang, true);
      succeed(t('deliveries.retried', { type: updated.type, date }));
    });
  return { shown, busy, refresh, retry };
}

/**
 * One endpoint's deliveries (docs/protocol.md#webhooks). Another author's endpoint answers 404 like
 * a missing one: the page then says only that, with a link back (as a product's page does).
 */
export function WebhookDeliveriesPage({ id }: { readonly id: string }) {
  const { t, api } = useApp();
  const load = useLoad(() => api.webhookDeliveries(id), [api, id]);
  const state = productPageState(load);
  const { shown, busy, refresh, retry } = useDeliveries(id, load.data?.deliveries ?? null);
  const title = t('deliveries.title');
  if (state !== 'shown') {
    return (
      <>
        <PageTitle text={title} />
        <p class={state === 'loading' ? 'loading' : undefined}>
          {state === 'loading' ? t('deliveries.loading') : t('deliveries.missing')}
        </p>
        {state === 'missing' ? <BackLink /> : null}
      </>
    );
  }
  return (
    <>
      <PageTitle text={title} />
      <EndpointSummary id={id} />
      <div class="actions">
        <button type="button" class="secondary" aria-busy={busy} onClick={() => void refresh()}>
          {t('deliveries.refresh')}
        </button>
      </div>
      <DeliveriesTable deliveries={shown} onRetry={(delivery) => void retry(delivery)} />
      <BackLink />
    </>
  );
}
