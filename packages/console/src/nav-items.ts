import type { MeView } from './api-types.js';
import type { MessageKey } from './i18n/translate.js';
import type { Route } from './routes.js';

export interface NavItem {
  readonly href: string;
  readonly label: MessageKey;
  /** The pages this item covers: the first is its own, the others below it. */
  readonly pages: readonly Route['page'][];
}

/**
 * What a principal may open (docs/protocol.md#authors): the authors and the purge are the
 * operator's. Both have the webhooks: an author manages its own endpoints (docs/protocol.md#webhooks).
 */
export function navItems(me: MeView): NavItem[] {
  const common: NavItem[] = [
    { href: '#/products', label: 'nav.products', pages: ['products', 'product'] },
    { href: '#/keys', label: 'nav.keys', pages: ['keys'] },
    { href: '#/webhooks', label: 'nav.webhooks', pages: ['webhooks', 'webhook'] },
  ];
  if (me.role === 'author') return [...common, { href: '#/tokens', label: 'nav.tokens', pages: ['tokens'] }];
  return [
    ...common,
    { href: '#/authors', label: 'nav.authors', pages: ['authors', 'author'] },
    { href: '#/purge', label: 'nav.purge', pages: ['purge'] },
  ];
}

/** `aria-current` of an item: `page` on its own page, `true` on a page below it (a product under Products). */
export function currentOf(item: NavItem, route: Route): 'page' | 'true' | undefined {
  if (item.pages[0] === route.page) return 'page';
  return item.pages.includes(route.page) ? 'true' : undefined;
}
