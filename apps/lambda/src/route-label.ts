/**
 * What a request log line names instead of the path (docs/protocol.md#privacy: no path in a log
 * line; an admin path holds a licence key). One of a fixed set, so a line never carries what a
 * client wrote.
 */
export function routeLabel(path: string): string {
  if (path === '/api/licence' || path === '/api/license' || path === '/healthz') return path;
  if (path === '/admin' || path.startsWith('/admin/')) return '/admin/*';
  return 'other';
}
