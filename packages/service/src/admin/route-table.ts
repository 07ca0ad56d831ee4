import type { AdminMethod, AdminOperations, AnyAdminOperation } from './operation.js';

/**
 * The admin API's routes, laid out from the operations' table (operations.ts): the path's
 * segments after `/admin`, the method, the name the log shows instead of the path (which may hold
 * a key), and the operation. routes.ts matches them.
 */
export interface AdminRoute {
  /** Path segments after `/admin`; `:name` captures one. */
  readonly pattern: readonly string[];
  readonly method: AdminMethod;
  readonly name: string;
  readonly operation: AnyAdminOperation;
}

const laidOut = new WeakMap<AdminOperations, readonly AdminRoute[]>();

/** The routes of `operations`, laid out once per table. */
export function adminRoutes(operations: AdminOperations): readonly AdminRoute[] {
  let routes = laidOut.get(operations);
  if (routes === undefined) {
    routes = Object.values(operations).map((operation) => ({
      pattern: operation.path.split('/').slice(2),
      method: operation.method,
      name: `${operation.method} ${operation.path}`,
      operation,
    }));
    laidOut.set(operations, routes);
  }
  return routes;
}
