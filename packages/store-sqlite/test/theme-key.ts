import type { Store } from '@licence/service';

type NewKey = Store.NewKey;

/** A buyer key of the product `theme` for one site, as these tests store it; `fields` changes any part. */
export function themeKey(hash: string, fields: Partial<NewKey> = {}): NewKey {
  return { hash, hint: 'AB12', produit: 'theme', kind: 'buyer', sites: 1, expiresAt: null, createdAt: 1, ...fields };
}

/** Inserts `key` and answers its id; a key the store did not create fails the test at once. */
export async function insertedKeyId(
  store: Pick<Store, 'insertKey'>,
  key: NewKey,
  domains?: readonly string[],
): Promise<string> {
  const inserted = await store.insertKey(key, domains);
  if (inserted.result !== 'created') throw new Error(`insertKey: ${inserted.result}`);
  return inserted.id;
}
