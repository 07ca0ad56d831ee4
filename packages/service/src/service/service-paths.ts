import { isAdminPath } from '../admin/index.js';
import { isBuyerPath } from '../buyer/index.js';
import { isConsolePath } from '../console/index.js';
import { HEALTH_PATH } from './create-service.js';
import { PUBLIC_PATHS } from '../verdict/index.js';
import { MAX_ADMIN_BODY_BYTES, MAX_BODY_BYTES } from '../http/index.js';

/**
 * What an adapter needs to know of the service's paths, so that none of them is written twice:
 * which paths are the service's, and how large a body each may read.
 */

/**
 * The paths the service answers (docs/protocol.md#request, #administration, #console, #buyer-links):
 * a middleware mounted in a bigger app leaves the others to it. `/favicon.ico` is not claimed: in a
 * bigger app it is that app's site icon, which the service's pages then show
 * (docs/protocol.md#favicon); a server of its own claims every path and answers it.
 */
export function isServicePath(path: string): boolean {
  return (
    PUBLIC_PATHS.includes(path) || path === HEALTH_PATH || isAdminPath(path) || isConsolePath(path) || isBuyerPath(path)
  );
}

/**
 * The body cap for a path (docs/protocol.md#limits): the admin API's for `/admin` and below, the
 * public endpoint's everywhere else (a buyer's transfer form included).
 */
export function bodyLimitFor(path: string): number {
  return isAdminPath(path) ? MAX_ADMIN_BODY_BYTES : MAX_BODY_BYTES;
}
