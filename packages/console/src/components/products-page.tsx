import { useId } from 'preact/hooks';
import type { ProductSummary } from '../api-types.js';
import { routeHref } from '../routes.js';
import { useApp } from './app-context.js';
import { PageTitle } from './page-title.js';
import { ProductForm } from './product-form.js';
import { TableWrap } from './table-wrap.js';
import { useLoad } from './use-load.js';

/** A product's staging host patterns, one a line, or "None". */
function StagingCell({ patterns }: { readonly patterns: readonly string[] }) {
  const { t } = useApp();
  if (patterns.length === 0) return <td>{t('products.stagingNone')}</td>;
  return (
    <td>
      <ul class="patterns">
        {patterns.map((pattern) => (
          <li key={pattern}>
            <code>{pattern}</code>
          </li>
        ))}
      </ul>
    </td>
  );
}

function ProductsTable({ products }: { readonly products: readonly ProductSummary[] | null }) {
  const { t } = useApp();
  const captionId = useId();
  return (
    <TableWrap captionId={captionId}>
      <table aria-busy={products === null}>
        <caption id={captionId}>{t('products.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('products.id')}</th>
            <th scope="col">{t('products.name')}</th>
            <th scope="col">{t('products.author')}</th>
            <th scope="col" class="number">
              {t('products.installations')}
            </th>
            <th scope="col">{t('products.staging')}</th>
          </tr>
        </thead>
        <tbody>
          {products?.length === 0 ? (
            <tr>
              <td colSpan={5}>{t('products.none')}</td>
            </tr>
          ) : null}
          {(products ?? []).map((product) => (
            <tr key={product.id}>
              <th scope="row">
                <a href={routeHref({ page: 'product', id: product.id })}>{product.id}</a>
              </th>
              <td>{product.name}</td>
              <td>{product.author}</td>
              <td class="number">{product.installations}</td>
              <StagingCell patterns={product.staging} />
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/**
 * The products this token reaches, with their installation counts and staging hosts, and the form
 * to create one; a product's own page edits its staging hosts.
 */
export function ProductsPage() {
  const { t, api } = useApp();
  const list = useLoad(() => api.listProducts(), [api]);
  return (
    <>
      <PageTitle text={t('products.title')} />
      <ProductsTable products={list.data?.products ?? null} />
      <ProductForm onCreated={list.reload} />
    </>
  );
}
