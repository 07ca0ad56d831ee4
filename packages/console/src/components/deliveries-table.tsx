import { useId } from 'preact/hooks';
import type { WebhookAttemptView, WebhookDeliveryView } from '../api-types.js';
import { formatInstant } from '../dates.js';
import { formatDuration, isSuccess } from '../webhook-deliveries.js';
import { useApp } from './app-context.js';
import { TableWrap } from './table-wrap.js';

/**
 * One attempt: when, what came back (the receiver's HTTP status, or why nothing did), how long it
 * took. The reason is the service's, in English (docs/protocol.md#errors), so it is marked
 * `lang="en"` for a screen reader.
 */
function Attempt({ attempt }: { readonly attempt: WebhookAttemptView }) {
  const { lang } = useApp();
  const outcome = isSuccess(attempt.status) ? 'ok' : 'bad';
  return (
    <li>
      <time dateTime={attempt.at}>{formatInstant(attempt.at, lang, true)}</time>
      {' · '}
      {attempt.status === null ? null : <span class={`outcome-${outcome}`}>HTTP {attempt.status}</span>}
      {attempt.status !== null && attempt.error !== null ? ', ' : null}
      {attempt.error === null ? null : (
        <span class="outcome-bad" lang="en">
          {attempt.error}
        </span>
      )}
      {' · '}
      {formatDuration(attempt.durationMs, lang)}
    </li>
  );
}

/** A delivery's attempts, folded under their count (a native disclosure: keyboard and screen readers know it). */
function Attempts({ attempts }: { readonly attempts: readonly WebhookAttemptView[] }) {
  const { t } = useApp();
  if (attempts.length === 0) return <>{t('deliveries.noAttempt')}</>;
  return (
    <details class="attempts">
      <summary>
        {attempts.length === 1 ? t('deliveries.attemptsOne') : t('deliveries.attemptsMany', { count: attempts.length })}
      </summary>
      <ol>
        {attempts.map((attempt, i) => (
          // Attempts have no id; their place is their identity (oldest first, only ever appended).
          <Attempt key={i} attempt={attempt} />
        ))}
      </ol>
    </details>
  );
}

function DeliveryRow(props: { readonly delivery: WebhookDeliveryView; readonly onRetry: () => void }) {
  const { t, lang } = useApp();
  const { delivery } = props;
  return (
    <tr>
      <td>
        <code>{delivery.type}</code>
      </td>
      <th scope="row">
        <code class="long-id">{delivery.event}</code>
      </th>
      <td>{formatInstant(delivery.created, lang, true)}</td>
      <td>
        <span class={`status delivery-${delivery.status}`}>{t(`deliveryStatus.${delivery.status}`)}</span>
      </td>
      <td>{delivery.nextAttempt === null ? '' : formatInstant(delivery.nextAttempt, lang, true)}</td>
      <td>
        <Attempts attempts={delivery.attempts} />
      </td>
      <td>
        <button type="button" class="secondary small" onClick={props.onRetry}>
          {t('deliveries.retry')}
          <span class="visually-hidden"> {delivery.event}</span>
        </button>
      </td>
    </tr>
  );
}

/** An endpoint's last 100 deliveries, newest first, each with its attempts and a Retry button. */
export function DeliveriesTable(props: {
  readonly deliveries: readonly WebhookDeliveryView[] | null;
  readonly onRetry: (delivery: WebhookDeliveryView) => void;
}) {
  const { t } = useApp();
  const captionId = useId();
  return (
    <TableWrap captionId={captionId}>
      <table aria-busy={props.deliveries === null}>
        <caption id={captionId}>{t('deliveries.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('deliveries.type')}</th>
            <th scope="col">{t('deliveries.event')}</th>
            <th scope="col">{t('deliveries.created')}</th>
            <th scope="col">{t('deliveries.status')}</th>
            <th scope="col">{t('deliveries.nextAttempt')}</th>
            <th scope="col">{t('deliveries.attempts')}</th>
            <th scope="col">{t('deliveries.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {props.deliveries?.length === 0 ? (
            <tr>
              <td colSpan={7}>{t('deliveries.none')}</td>
            </tr>
          ) : null}
          {(props.deliveries ?? []).map((delivery) => (
            <DeliveryRow key={delivery.id} delivery={delivery} onRetry={() => props.onRetry(delivery)} />
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
