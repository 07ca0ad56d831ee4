import { type KeyRecord, parseKeyRecord } from '../src/key-record.js';

/** The fields of a valid key record: an active buyer key for one product, bound to its one site. */
export const VALID_KEY = {
  kind: 'buyer',
  status: 'active',
  endedAt: null,
  expiresAt: null,
  products: ['galerie-pro'],
  sites: 1,
  domains: ['exemple.fr'],
};

/** The KeyRecord parseKeyRecord makes of `fields`, which the verdict tests hand it (never null). */
export function keyRecord(fields: Record<string, unknown>): KeyRecord {
  const parsed = parseKeyRecord(fields);
  if (parsed === null) throw new Error('unreachable: the fields are not null');
  return parsed;
}
