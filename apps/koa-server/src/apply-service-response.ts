import type { ServiceResponse } from '@licence/service';
import type { Context } from 'koa';

/**
 * Step 3 of the adapter (CONTRIBUTING.md#architecture; hono's `createResult`): the service's
 * `{status, headers, body}` onto Koa's response, exactly: Koa must add no Content-Type of its own.
 */
export function applyServiceResponse(ctx: Context, response: ServiceResponse): void {
  // Status first: Koa's body setter would otherwise pick 200 for us.
  ctx.status = response.status;
  let hasType = false;
  for (const [name, value] of Object.entries(response.headers)) {
    if (name.toLowerCase() === 'content-type') hasType = true;
    ctx.set(name, value);
  }
  ctx.body = response.body;
  // Koa types a string body text/plain when no type is set; an empty answer (405) has none.
  if (!hasType) ctx.remove('Content-Type');
  // The service answers HEAD (the console's files, docs/protocol.md#console) without the content:
  // its length is unknown here, not 0, so none is sent (RFC 9110 9.3.2 lets a HEAD answer omit it).
  if (ctx.method === 'HEAD' && response.body === '') ctx.remove('Content-Length');
}
