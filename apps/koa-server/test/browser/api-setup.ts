import type { ConsoleSuite } from './console-suite.js';
import { adminOk } from './console-server.js';

/**
 * What a test needs before it opens the console, made through the admin API with the operator
 * token (the console's own forms are tested where they are the subject).
 */

export async function addProduct(
  suite: ConsoleSuite,
  id: string,
  author: string,
  name = `Product ${id}`,
): Promise<void> {
  await adminOk(suite.server, suite.server.operatorToken, 'POST', '/admin/products', { id, author, name });
}

/** A buyer key of `produit` for one site; remembered in the suite's secrets. */
export async function issueKey(suite: ConsoleSuite, produit: string): Promise<{ cle: string; hint: string }> {
  const key = await adminOk(suite.server, suite.server.operatorToken, 'POST', '/admin/keys', {
    produit,
    kind: 'buyer',
    sites: 1,
  });
  if (typeof key.cle !== 'string' || typeof key.hint !== 'string') throw new Error('POST /admin/keys: no cle or hint');
  suite.secrets.keys.push(key.cle);
  return { cle: key.cle, hint: key.hint };
}

/** An author and one token of theirs (shown once by the API); the token is remembered as a secret. */
export async function addAuthorWithToken(suite: ConsoleSuite, id: string, name: string): Promise<string> {
  const { server } = suite;
  await adminOk(server, server.operatorToken, 'POST', '/admin/authors', { id, name });
  const created = await adminOk(server, server.operatorToken, 'POST', `/admin/authors/${id}/tokens`, {
    label: 'tests',
  });
  if (typeof created.token !== 'string') throw new Error(`POST /admin/authors/${id}/tokens: no token`);
  suite.secrets.tokens.push(created.token);
  return created.token;
}

export async function revokeKey(suite: ConsoleSuite, cle: string): Promise<void> {
  await adminOk(suite.server, suite.server.operatorToken, 'POST', `/admin/keys/${encodeURIComponent(cle)}/revoke`, {});
}
