import { useId, useState } from 'preact/hooks';
import type { BuyerLinkView } from '../api-types.js';
import { formatInstant } from '../dates.js';
import { useApp } from './app-context.js';
import { ShownOnce } from './shown-once.js';
import { useAction } from './use-action.js';

/** How long a link may live: the service's default (one day), a week, its maximum of 30 days. */
const DAYS = [1, 7, 30] as const;

function TtlSelect(props: { readonly days: number; readonly onDays: (days: number) => void }) {
  const { t } = useApp();
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{t('buyerLink.ttl')}</label>
      <select id={id} value={String(props.days)} onChange={(e) => props.onDays(Number(e.currentTarget.value))}>
        {DAYS.map((days) => (
          <option key={days} value={String(days)}>
            {days === 1 ? t('buyerLink.oneDay') : t('buyerLink.days', { days })}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A buyer link for a live key (docs/protocol.md#buyer-links): `POST admin/keys/:cle/buyer-link`,
 * and the link shown once with a Copy button and its expiry. The link holds a token that lets
 * whoever has it transfer the key, so it is treated as the console treats a new key: component
 * state only, gone with "Done" or on leaving the page, never in the hash route or any storage.
 */
export function BuyerLink(props: { readonly cle: string; readonly hint: string }) {
  const { t, lang, api, succeed } = useApp();
  const { busy, run } = useAction();
  const headingId = useId();
  const [days, setDays] = useState<number>(1);
  const [link, setLink] = useState<BuyerLinkView | null>(null);
  const create = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      setLink(null);
      setLink(await api.buyerLink(props.cle, { ttl: days * 86_400 }));
      succeed(t('buyerLink.created'));
    });
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('buyerLink.title')}</h2>
      <p>{t('buyerLink.intro')}</p>
      <form class="panel" aria-busy={busy} aria-labelledby={headingId} onSubmit={create}>
        <TtlSelect days={days} onDays={setDays} />
        <div class="actions">
          <button type="submit">{t('buyerLink.button')}</button>
        </div>
      </form>
      {link === null ? null : (
        <ShownOnce
          label={t('once.buyerLink', { hint: props.hint })}
          value={link.url}
          rows={4}
          onDone={() => setLink(null)}
        >
          <p class="once-note">{t('buyerLink.until', { date: formatInstant(link.expires, lang) })}</p>
        </ShownOnce>
      )}
    </section>
  );
}
