import { useId } from 'preact/hooks';
import type { KeyView } from '../api-types.js';
import { formatInstant } from '../dates.js';
import { routeHref } from '../routes.js';
import { useApp } from './app-context.js';
import { TableWrap } from './table-wrap.js';

function DomainsTable({ view }: { readonly view: KeyView }) {
  const { t, lang } = useApp();
  const captionId = useId();
  return (
    <TableWrap captionId={captionId}>
      <table>
        <caption id={captionId}>{t('domains.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('domains.domain')}</th>
            <th scope="col">{t('domains.firstSeen')}</th>
            <th scope="col">{t('domains.lastSeen')}</th>
          </tr>
        </thead>
        <tbody>
          {view.domains.length === 0 ? (
            <tr>
              <td colSpan={3}>{t('domains.none')}</td>
            </tr>
          ) : null}
          {view.domains.map((d) => (
            <tr key={d.domain}>
              <th scope="row">{d.domain}</th>
              <td>{formatInstant(d.firstSeen, lang)}</td>
              <td>{formatInstant(d.lastSeen, lang)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** A key as the admin API shows it: never the key itself, only its hint (docs/protocol.md#key-lifecycle). */
export function KeyDetails({ view }: { readonly view: KeyView }) {
  const { t, lang } = useApp();
  const headingId = useId();
  const when = (iso: string) => formatInstant(iso, lang);
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('key.title', { hint: view.hint })}</h2>
      <dl class="facts">
        <dt>{t('key.product')}</dt>
        <dd>
          <a href={routeHref({ page: 'product', id: view.produit })}>{view.produit}</a>
        </dd>
        <dt>{t('key.status')}</dt>
        <dd>
          <span class={`status status-${view.status}`}>{t(`status.${view.status}`)}</span>
        </dd>
        <dt>{t('key.kind')}</dt>
        <dd>{t(`kind.${view.kind}`)}</dd>
        <dt>{t('key.sites')}</dt>
        <dd>{view.sites}</dd>
        {view.expire === null ? null : (
          <>
            <dt>{t('key.expire')}</dt>
            <dd>{when(view.expire)}</dd>
          </>
        )}
        {view.quand === null ? null : (
          <>
            <dt>{t('key.quand')}</dt>
            <dd>{when(view.quand)}</dd>
          </>
        )}
        {view.reason === null ? null : (
          <>
            <dt>{t('key.reason')}</dt>
            <dd>{view.reason}</dd>
          </>
        )}
      </dl>
      <DomainsTable view={view} />
    </section>
  );
}
