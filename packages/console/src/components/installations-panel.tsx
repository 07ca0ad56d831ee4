import { useId } from 'preact/hooks';
import type { DomainView, InstallationKey, InstallationsView } from '../api-types.js';
import { formatInstant } from '../dates.js';
import { downloadText } from '../download.js';
import { installationsCsv, installationsFileName } from '../installations-csv.js';
import { useApp } from './app-context.js';
import { TableWrap } from './table-wrap.js';

function InstallationsTable({ view }: { readonly view: InstallationsView }) {
  const { t, lang } = useApp();
  const captionId = useId();
  const rows = view.keys.flatMap((key): { key: InstallationKey; domain: DomainView | null }[] =>
    key.domains.length === 0 ? [{ key, domain: null }] : key.domains.map((domain) => ({ key, domain })),
  );
  return (
    <TableWrap captionId={captionId}>
      <table>
        <caption id={captionId}>{t('installations.caption', { id: view.produit })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('key.hint')}</th>
            <th scope="col">{t('key.kind')}</th>
            <th scope="col">{t('key.status')}</th>
            <th scope="col">{t('domains.domain')}</th>
            <th scope="col">{t('domains.firstSeen')}</th>
            <th scope="col">{t('domains.lastSeen')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={6}>{t('installations.none')}</td>
            </tr>
          ) : null}
          {rows.map(({ key, domain }) => (
            <tr key={`${key.hint}:${domain?.domain ?? ''}`}>
              <td>
                <code>…{key.hint}</code>
              </td>
              <td>{t(`kind.${key.kind}`)}</td>
              <td>{t(`status.${key.status}`)}</td>
              <td>{domain?.domain ?? t('domains.noneShort')}</td>
              <td>{domain === null ? '' : formatInstant(domain.firstSeen, lang)}</td>
              <td>{domain === null ? '' : formatInstant(domain.lastSeen, lang)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/**
 * A product's installations: the count, a table of keys and bound domains, and the CSV export. The
 * product's page loads them (its first call tells whether the product is reachable at all), and
 * again after a key is issued.
 */
export function InstallationsPanel({ view }: { readonly view: InstallationsView | null }) {
  const { t, succeed } = useApp();
  const headingId = useId();
  const exportCsv = () => {
    if (view === null) return;
    downloadText(installationsFileName(view.produit, new Date()), installationsCsv(view), 'text/csv;charset=utf-8');
    succeed(t('installations.exported'));
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('installations.title')}</h2>
      {view === null ? null : (
        <>
          <p>{t('installations.count', { count: view.count })}</p>
          <InstallationsTable view={view} />
          <div class="actions">
            <button type="button" onClick={exportCsv}>
              {t('installations.export')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
