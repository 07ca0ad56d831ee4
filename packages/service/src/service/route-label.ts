import { ADMIN_OPERATIONS, isAdminPath } from '../admin/index.js';
import { buyerRouteLabel, isBuyerPath } from '../buyer/index.js';
import { CONSOLE_PATH, isConsolePath } from '../console/index.js';
import { HEALTH_PATH } from './create-service.js';
import { FAVICON_PATH } from '../console/index.js';
import { PUBLIC_PATHS } from '../verdict/index.js';

/**
 * What a request log line names instead of the path (docs/protocol.md#privacy: no path in any log
 * line, and no key: `/admin/keys/:cle` holds a full licence key, `/buyer/:token` a buyer link's
 * token). Every adapter logs it, so a request reads the same on the Koa server and on Lambda. The
 * label is one of a fixed set, so a log line can never carry anything the client wrote.
 */

/**
 * The admin API's routes (docs/protocol.md#administration), from its operations' table, each path
 * once; `:name` stands for one non-empty segment.
 */
const ADMIN_ROUTES = [...new Set(Object.values(ADMIN_OPERATIONS).map((operation) => operation.path))].map((route) => ({
  route,
  parts: route.split('/'),
}));

export function routeLabel(path: string): string {
  if (PUBLIC_PATHS.includes(path) || path === HEALTH_PATH || path === CONSOLE_PATH || path === FAVICON_PATH) {
    return path;
  }
  // docs/protocol.md#console: the console's files are not secret, but a label is one of a fixed set.
  if (isConsolePath(path)) return `${CONSOLE_PATH}/*`;
  // docs/protocol.md#buyer-links: a buyer path holds the link's token.
  if (isBuyerPath(path)) return buyerRouteLabel(path);
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
