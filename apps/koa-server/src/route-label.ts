/**
 * What a request log line names instead of the path (docs/protocol.md#privacy: no path in any log
 * line, and no key: `/admin/keys/:cle` holds a full licence key). The label is one of a fixed set,
 * so a log line can never carry anything the client wrote.
 */
const ADMIN_KEY_ACTIONS = new Set(['regenerate', 'transfer', 'revoke']);

export function routeLabel(path: string): string {
  if (path === '/api/licence' || path === '/api/license' || path === '/healthz') return path;
  if (path === '/admin/products' || path === '/admin/keys' || path === '/admin/purge') return path;
  const parts = path.split('/');
  // ['', 'admin', 'keys', ':cle'] or ['', 'admin', 'keys', ':cle', action]
  if (parts[1] === 'admin' && parts[2] === 'keys' && parts[3] !== undefined && parts[3] !== '') {
    if (parts.length === 4) return '/admin/keys/:cle';
    if (parts.length === 5 && ADMIN_KEY_ACTIONS.has(parts[4] ?? '')) return `/admin/keys/:cle/${parts[4] ?? ''}`;
  }
  if (parts.length === 5 && parts[1] === 'admin' && parts[2] === 'products' && parts[4] === 'installations') {
    return '/admin/products/:id/installations';
  }
  if (path === '/admin' || path.startsWith('/admin/')) return '/admin/*';
  return 'other';
}

/**
 * The paths the service answers (docs/protocol.md#request, #administration); a mounted middleware
 * leaves the others alone.
 */
export function isServicePath(path: string): boolean {
  return (
    path === '/api/licence' ||
    path === '/api/license' ||
    path === '/healthz' ||
    path === '/admin' ||
    path.startsWith('/admin/')
  );
}
