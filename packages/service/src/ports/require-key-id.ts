/**
 * A Store write's key id in the store's own form. `parse` answers null for a string that names no
 * row of that store (ports.ts: ids are opaque strings); a write to such an id is a caller's bug,
 * so it throws, naming the id (an id, never a key).
 */
export function requireKeyId<T>(id: string, parse: (id: string) => T | null): T {
  const parsed = parse(id);
  if (parsed === null) {
    throw new TypeError(`keyId: expected a key id of this store, got ${JSON.stringify(id)}`);
  }
  return parsed;
}
