import { useId } from 'preact/hooks';
import type { TokenView } from '../api-types.js';
import { formatInstant } from '../dates.js';
import { useApp } from './app-context.js';
import { TableWrap } from './table-wrap.js';

/** An author's tokens: ids, labels and dates only; a token itself is never shown again. */
export function TokensTable(props: {
  readonly tokens: readonly TokenView[] | null;
  readonly onDelete: (token: TokenView) => void;
}) {
  const { t, lang } = useApp();
  const captionId = useId();
  return (
    <TableWrap captionId={captionId}>
      <table aria-busy={props.tokens === null}>
        <caption id={captionId}>{t('tokens.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('tokens.label')}</th>
            <th scope="col">{t('tokens.id')}</th>
            <th scope="col">{t('tokens.created')}</th>
            <th scope="col">{t('tokens.lastUsed')}</th>
            <th scope="col">{t('tokens.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {props.tokens?.length === 0 ? (
            <tr>
              <td colSpan={5}>{t('tokens.none')}</td>
            </tr>
          ) : null}
          {(props.tokens ?? []).map((token) => (
            <tr key={token.id}>
              <th scope="row">{token.label ?? t('tokens.noLabel')}</th>
              <td>
                <code>{token.id}</code>
              </td>
              <td>{formatInstant(token.created, lang)}</td>
              <td>{token.lastUsed === null ? t('tokens.neverUsed') : formatInstant(token.lastUsed, lang)}</td>
              <td>
                <button type="button" class="danger small" onClick={() => props.onDelete(token)}>
                  {t('tokens.delete', { name: token.label ?? token.id })}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
