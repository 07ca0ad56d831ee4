import { useId, useState } from 'preact/hooks';
import type { NewWebhookView, WebhookEventType } from '../api-types.js';
import { FormError } from '../form-error.js';
import { webhookBody } from '../webhook-body.js';
import { WEBHOOK_EVENTS } from '../webhook-events.js';
import { useApp } from './app-context.js';
import { Field } from './field.js';
import { useAction } from './use-action.js';
import { useLoad } from './use-load.js';
import { WebhookSecret } from './webhook-secret.js';

/** The events to send, each a checkbox named by the event's type and described by what it means. */
function EventChoices(props: {
  readonly chosen: ReadonlySet<WebhookEventType>;
  readonly onChosen: (chosen: ReadonlySet<WebhookEventType>) => void;
}) {
  const { t } = useApp();
  const id = useId();
  const toggle = (event: WebhookEventType, on: boolean) => {
    const next = new Set(props.chosen);
    if (on) next.add(event);
    else next.delete(event);
    props.onChosen(next);
  };
  return (
    <fieldset class="choices">
      <legend>{t('webhooks.eventsLegend')}</legend>
      {WEBHOOK_EVENTS.map((event, i) => (
        <div class="choice" key={event}>
          <input
            type="checkbox"
            id={`${id}-${i}`}
            checked={props.chosen.has(event)}
            onChange={(e) => toggle(event, e.currentTarget.checked)}
            aria-describedby={`${id}-${i}-hint`}
          />
          <label for={`${id}-${i}`}>
            <code>{event}</code>
          </label>
          <p class="hint" id={`${id}-${i}-hint`}>
            {t(`event.${event}`)}
          </p>
        </div>
      ))}
    </fieldset>
  );
}

/** The operator's choice: one author's products, or every author's (docs/protocol.md#webhooks). */
function AuthorSelect(props: { readonly value: string; readonly onValue: (author: string) => void }) {
  const { t, api } = useApp();
  const id = useId();
  const authors = useLoad(() => api.listAuthors(), [api]);
  return (
    <div class="field">
      <label for={id}>{t('webhooks.authorField')}</label>
      <p class="hint" id={`${id}-hint`}>
        {t('webhooks.authorHint')}
      </p>
      <select
        id={id}
        value={props.value}
        aria-describedby={`${id}-hint`}
        onChange={(e) => props.onValue(e.currentTarget.value)}
      >
        <option value="">{t('webhooks.everyAuthor')}</option>
        {(authors.data?.authors ?? []).map((author) => (
          <option key={author.id} value={author.id}>
            {author.name === author.id ? author.id : `${author.name} (${author.id})`}
          </option>
        ))}
      </select>
    </div>
  );
}

const ALL_EVENTS: ReadonlySet<WebhookEventType> = new Set(WEBHOOK_EVENTS);

/**
 * Add an endpoint (docs/protocol.md#webhooks): its URL, its events (all ticked to start with) and,
 * for the operator, its author. The secret of the new endpoint is shown once. A URL the service
 * refuses (not https, a private address...) comes back as a 400 whose detail says why.
 */
export function WebhookForm({ onCreated }: { readonly onCreated: () => void }) {
  const { t, api, me, succeed } = useApp();
  const { busy, run } = useAction();
  const headingId = useId();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState(ALL_EVENTS);
  const [author, setAuthor] = useState('');
  const [created, setCreated] = useState<NewWebhookView | null>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      setCreated(null);
      const check = webhookBody({ url, events, author }, me.role);
      if (!check.ok) throw new FormError(t(check.field === 'url' ? 'webhooks.urlMissing' : 'webhooks.eventsMissing'));
      const endpoint = await api.addWebhook(check.body);
      setCreated(endpoint);
      setUrl('');
      setEvents(ALL_EVENTS);
      setAuthor('');
      succeed(t('webhooks.added'));
      onCreated();
    });
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('webhooks.add')}</h2>
      <form class="panel" aria-busy={busy} onSubmit={submit}>
        <Field
          label={t('webhooks.urlField')}
          hint={t('webhooks.urlHint')}
          value={url}
          onValue={setUrl}
          required
          verbatim
          maxLength={2048}
        />
        <EventChoices chosen={events} onChosen={setEvents} />
        {me.role === 'operator' ? <AuthorSelect value={author} onValue={setAuthor} /> : null}
        <div class="actions">
          <button type="submit">{t('webhooks.addButton')}</button>
        </div>
      </form>
      {created === null ? null : (
        <WebhookSecret label={t('once.secret')} secret={created.secret} onDone={() => setCreated(null)} />
      )}
    </section>
  );
}
