import { admin, adminRequest, json } from './harness.js';
import type { Service, ServiceRequest, ServiceResponse } from '../src/http/index.js';

/**
 * Authors and their tokens for the service's tests (docs/protocol.md#authors), made through the
 * admin API as an operator would: nothing is written into the store behind the service's back.
 */

export interface AuthorToken {
  readonly id: string;
  readonly token: string;
}

/** Adds the author `id` (as the operator) and one token of it; answers the token. */
export async function authorWithToken(service: Service, id: string, label?: string): Promise<AuthorToken> {
  await admin(service, 'POST', '/admin/authors', { id, name: `Author ${id}` }, 201);
  return newToken(service, id, label);
}

/** A new token of the existing author `id`, made by the operator. */
export async function newToken(service: Service, id: string, label?: string): Promise<AuthorToken> {
  const body = label === undefined ? undefined : { label };
  const made = await admin(service, 'POST', `/admin/authors/${encodeURIComponent(id)}/tokens`, body, 201);
  if (typeof made.id !== 'string' || typeof made.token !== 'string') throw new Error('no token');
  return { id: made.id, token: made.token };
}

/**
 * An admin request with `token` in place of the operator's; a `?query` in `path` goes to `query`,
 * as an adapter hands it over.
 */
export function as(token: string, method: string, path: string, body?: unknown): ServiceRequest {
  const [pathOnly = path, query] = path.split(/\?(.*)/s);
  const request = adminRequest(method, pathOnly, body, token);
  return query === undefined ? request : { ...request, query };
}

/** Calls the admin API with `token` and insists on `status`; the JSON body, or {} for none. */
export async function call(
  service: Service,
  token: string,
  method: string,
  path: string,
  body: unknown,
  status: number,
): Promise<Record<string, unknown>> {
  const response: ServiceResponse = await service.handle(as(token, method, path, body));
  if (response.status !== status) {
    throw new Error(`${method} ${path}: expected ${status}, got ${response.status} ${response.body}`);
  }
  return response.body === '' ? {} : json(response);
}
