import { useId } from 'preact/hooks';
import type { WebhookView } from '../api-types.js';
import { formatInstant } from '../dates.js';
import { routeHref } from '../routes.js';
import { useApp } from './app-context.js';
import { TableWrap } from './table-wrap.js';

export interface WebhooksTableProps {
  readonly webhooks: readonly WebhookView[] | null;
  readonly onRotate: (webhook: WebhookView) => void;
  readonly onDelete: (webhook: WebhookView) => void;
}

/**
 * A row's links and buttons. Each name ends with the endpoint's URL, out of sight, so that a screen
 * reader's list of buttons tells one "Delete" from the next; the visible word starts the name
 * (WCAG 2.2 SC 2.5.3, label in name).
 */
function RowActions({ webhook, ...props }: Omit<WebhooksTableProps, 'webhooks'> & { readonly webhook: WebhookView }) {
  const { t } = useApp();
  const which = <span class="visually-hidden"> {webhook.url}</span>;
  return (
    <div class="actions row-actions">
      <a class="button-link" href={routeHref({ page: 'webhook', id: webhook.id })}>
        {t('webhooks.deliveries')}
        {which}
      </a>
      <button type="button" class="secondary small" onClick={() => props.onRotate(webhook)}>
        {t('webhooks.rotate')}
        {which}
      </button>
      <button type="button" class="danger small" onClick={() => props.onDelete(webhook)}>
        {t('webhooks.delete')}
        {which}
      </button>
    </div>
  );
}

/**
 * The endpoints this token manages (docs/protocol.md#webhooks): the operator sees every one, with
 * its author (or every author); an author, its own, without that column.
 */
export function WebhooksTable(props: WebhooksTableProps) {
  const { t, lang, me } = useApp();
  const captionId = useId();
  const operator = me.role === 'operator';
  const columns = operator ? 5 : 4;
  return (
    <TableWrap captionId={captionId}>
      <table aria-busy={props.webhooks === null}>
        <caption id={captionId}>{t('webhooks.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('webhooks.url')}</th>
            <th scope="col">{t('webhooks.events')}</th>
            {operator ? <th scope="col">{t('webhooks.author')}</th> : null}
            <th scope="col">{t('webhooks.created')}</th>
            <th scope="col">{t('webhooks.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {props.webhooks?.length === 0 ? (
            <tr>
              <td colSpan={columns}>{t('webhooks.none')}</td>
            </tr>
          ) : null}
          {(props.webhooks ?? []).map((webhook) => (
            <tr key={webhook.id}>
              <th scope="row" class="url">
                {webhook.url}
              </th>
              <td>
                <ul class="events">
                  {webhook.events.map((event) => (
                    <li key={event}>
                      <code>{event}</code>
                    </li>
                  ))}
                </ul>
              </td>
              {operator ? <td>{webhook.author ?? t('webhooks.everyAuthor')}</td> : null}
              <td>{formatInstant(webhook.created, lang)}</td>
              <td>
                <RowActions webhook={webhook} onRotate={props.onRotate} onDelete={props.onDelete} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
