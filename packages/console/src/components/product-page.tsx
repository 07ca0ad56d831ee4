import { useState } from 'preact/hooks';
import type { ProductSummary as Product } from '../api-types.js';
import { productPageState } from '../product-page-state.js';
import { ActivityPanel } from './activity-panel.js';
import { useApp } from './app-context.js';
import { InstallationsPanel } from './installations-panel.js';
import { IssueKeyForm } from './issue-key-form.js';
import { MessagePage } from './message-page.js';
import { PageTitle } from './page-title.js';
import { StagingForm } from './staging-form.js';
import { useLoad } from './use-load.js';

/**
 * The product's name, author and staging hosts, from the product list (there is no route for one
 * product); the list loads again once its staging hosts are saved.
 */
function useProduct(id: string): { readonly product: Product | null; readonly reload: () => void } {
  const { api } = useApp();
  const list = useLoad(() => api.listProducts(), [api]);
  return { product: list.data?.products.find((p) => p.id === id) ?? null, reload: list.reload };
}

/**
 * One product: issue a key, its installations (with the CSV export), its activity, its staging
 * hosts. Its installations are the page's first call: another author's product answers 404 like a
 * missing one (docs/protocol.md#authors), and then the page says only that, with nothing of the
 * product. Issuing a key changes the installations and, once the key is used, the activity:
 * `version` counts the keys issued here, and both load again on each.
 */
export function ProductPage({ id }: { readonly id: string }) {
  const { t, api } = useApp();
  const [version, setVersion] = useState(0);
  const installations = useLoad(() => api.installations(id), [api, id, version]);
  const { product, reload } = useProduct(id);
  const state = productPageState(installations);
  const title = t('product.title', { id });
  if (state === 'missing') return <MessagePage title={title} text={t('product.missing', { id })} />;
  if (state === 'loading') {
    return (
      <>
        <PageTitle text={title} />
        <p class="loading">{t('product.loading')}</p>
      </>
    );
  }
  return (
    <>
      <PageTitle text={title} />
      {product === null ? null : (
        <p class="lead">{t('product.summary', { name: product.name, author: product.author })}</p>
      )}
      <IssueKeyForm produit={id} onIssued={() => setVersion((n) => n + 1)} />
      <InstallationsPanel view={installations.data} />
      <ActivityPanel id={id} version={version} />
      {product === null ? null : <StagingForm product={product} onSaved={reload} />}
    </>
  );
}
