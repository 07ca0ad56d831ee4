import { isAdminPath } from './admin-routes.js';
import { HEALTH_PATH } from './create-service.js';
import { PUBLIC_PATHS } from './public-endpoint.js';

/**
 * What a request log line names instead of the path (docs/protocol.md#privacy: no path in any log
 * line, and no key: `/admin/keys/:cle` holds a full licence key). Every adapter logs it, so a
 * request reads the same on the Koa server and on Lambda. The label is one of a fixed set, so a log
 * line can never carry anything the client wrote.
 */

/** The admin API's routes (docs/protocol.md#administration); `:name` stands for one non-empty segment. */
const ADMIN_ROUTES = [
  '/admin/products',
  '/admin/keys',
  '/admin/purge',
  '/admin/keys/:cle',
  '/admin/keys/:cle/regenerate',
  '/admin/keys/:cle/transfer',
  '/admin/keys/:cle/revoke',
  '/admin/products/:id/installations',
].map((route) => ({ route, parts: route.split('/') }));

export function routeLabel(path: string): string {
  if (PUBLIC_PATHS.includes(path) || path === HEALTH_PATH) return path;
  if (!isAdminPath(path)) return 'other';
  const segments = path.split('/');
  return ADMIN_ROUTES.find(({ parts }) => fits(parts, segments))?.route ?? '/admin/*';
}

function fits(parts: readonly string[], segments: readonly string[]): boolean {
  return (
    parts.length === segments.length &&
    parts.every((part, index) => (part.startsWith(':') ? segments[index] !== '' : part === segments[index]))
  );
}
