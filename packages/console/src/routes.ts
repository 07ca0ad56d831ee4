/**
 * The console's pages, as hash routes: the page stays one file the service serves at /console,
 * under any API Gateway stage prefix. A route holds ids only: never a token, never a licence key
 * (a key is typed into a field and kept in component state, docs/protocol.md#console).
 */
export type Route =
  | { readonly page: 'products' }
  | { readonly page: 'product'; readonly id: string }
  | { readonly page: 'keys' }
  | { readonly page: 'authors' }
  | { readonly page: 'author'; readonly id: string }
  | { readonly page: 'tokens' }
  | { readonly page: 'purge' }
  | { readonly page: 'webhooks' }
  | { readonly page: 'webhook'; readonly id: string }
  | { readonly page: 'missing' };

function decode(part: string): string | null {
  try {
    const value = decodeURIComponent(part);
    return value === '' ? null : value;
  } catch {
    return null;
  }
}

/** The route of `location.hash` (`#/products/abc`); an empty hash is the products page. */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/');
  const [first = '', second, ...rest] = parts;
  if (rest.length > 0) return { page: 'missing' };
  const id = second === undefined ? null : decode(second);
  if (second !== undefined && id === null) return { page: 'missing' };
  switch (first) {
    case '':
    case 'products':
      return id === null ? { page: 'products' } : { page: 'product', id };
    case 'authors':
      return id === null ? { page: 'authors' } : { page: 'author', id };
    case 'webhooks':
      return id === null ? { page: 'webhooks' } : { page: 'webhook', id };
    case 'keys':
    case 'tokens':
    case 'purge':
      return id === null ? { page: first } : { page: 'missing' };
    default:
      return { page: 'missing' };
  }
}

/** The hash of a route, ids percent-encoded. */
export function routeHref(route: Route): string {
  switch (route.page) {
    case 'product':
      return `#/products/${encodeURIComponent(route.id)}`;
    case 'author':
      return `#/authors/${encodeURIComponent(route.id)}`;
    case 'webhook':
      return `#/webhooks/${encodeURIComponent(route.id)}`;
    case 'missing':
      return '#/products';
    default:
      return `#/${route.page}`;
  }
}
