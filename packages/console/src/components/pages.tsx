import type { Route } from '../routes.js';
import { useApp } from './app-context.js';
import { AuthorsPage } from './authors-page.js';
import { KeysPage } from './keys-page.js';
import { MessagePage } from './message-page.js';
import { ProductPage } from './product-page.js';
import { ProductsPage } from './products-page.js';
import { PurgePage } from './purge-page.js';
import { TokensPage } from './tokens-page.js';
import { WebhookDeliveriesPage } from './webhook-deliveries-page.js';
import { WebhooksPage } from './webhooks-page.js';

/**
 * The page of a route. The operator's pages are not offered to an author (the service would answer
 * 403 anyway, docs/protocol.md#authors); an author's tokens page is its own author's.
 */
export function Pages({ route }: { readonly route: Route }) {
  const { me, t } = useApp();
  const operator = me.role === 'operator';
  switch (route.page) {
    case 'products':
      return <ProductsPage />;
    case 'product':
      return <ProductPage key={route.id} id={route.id} />;
    case 'keys':
      return <KeysPage />;
    case 'tokens':
      return me.role === 'author' ? <TokensPage key={me.author.id} author={me.author.id} /> : <AuthorsPage />;
    case 'authors':
      return operator ? <AuthorsPage /> : <MessagePage title={t('forbidden.title')} text={t('error.forbidden')} />;
    case 'author':
      return operator ? (
        <TokensPage key={route.id} author={route.id} />
      ) : (
        <MessagePage title={t('forbidden.title')} text={t('error.forbidden')} />
      );
    case 'webhooks':
      return <WebhooksPage />;
    case 'webhook':
      return <WebhookDeliveriesPage key={route.id} id={route.id} />;
    case 'purge':
      return operator ? <PurgePage /> : <MessagePage title={t('forbidden.title')} text={t('error.forbidden')} />;
    default:
      return <MessagePage title={t('missing.title')} text={t('missing.text')} />;
  }
}
