import { formatQuand, generateKey, keyHint, keyState, normalizeKey, type RandomBytes } from '@licence/core';
import { type AdminError, adminError, storeUnavailable } from './errors.js';
import { hashKey } from '../verdict/index.js';
import * as rules from './rules.js';
import type { DomainView } from './types.js';
import type { BoundDomain, NewKey, Store, StoredKey } from '../ports/index.js';

/**
 * What the key operations share: the store call, the key a `cle` names and whether it is alive,
 * and new keys (docs/protocol.md#key-lifecycle). A full key is returned once, by issue, regenerate
 * and transfer; everything else, logs included, shows only its four-character hint
 * (docs/protocol.md#privacy).
 */

/**
 * Runs a store call for an admin operation; a rejection is the AdminError `STORE_UNAVAILABLE`, the
 * cause kept for the log. Outside the admin operations (verdict, buyer pages, admin auth), http's
 * `callOr503` throws an HttpError 503 instead.
 */
export async function callOrStoreUnavailable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storeUnavailable(error);
  }
}

/** The stored key `cle` names, or `KEY_NOT_FOUND`. */
export async function findKey(store: Store, cle: string): Promise<StoredKey> {
  const normalised = rules.key(cle);
  const stored = await callOrStoreUnavailable(() => store.findKeyByHash(hashKey(normalised)));
  if (stored === null) throw adminError('KEY_NOT_FOUND', keyHint(normalised));
  return stored;
}

/** docs/protocol.md#key-lifecycle: any action on a key that is no longer alive is a conflict. */
export function requireAlive(stored: StoredKey, now: number): void {
  const state = keyState(stored, now);
  if (state !== 'active') throw adminError('KEY_NOT_ALIVE', stored.hint, state);
}

/** The store found the key no longer active when it wrote: another action came first. */
export function changedMeanwhile(stored: StoredKey): AdminError {
  return adminError('KEY_NOT_ALIVE', stored.hint, 'changed meanwhile');
}

/** A new key: the formatted text to show once, and what the store keeps. */
export function newKey(
  random: RandomBytes,
  template: Omit<NewKey, 'hash' | 'hint'>,
): { readonly cle: string; readonly key: NewKey } {
  const cle = generateKey(random);
  const normalised = normalizeKey(cle);
  return { cle, key: { ...template, hash: hashKey(normalised), hint: keyHint(normalised) } };
}

/**
 * docs/protocol.md#key-lifecycle: a replacement keeps the product, the kind and the limits of the
 * key it replaces.
 */
export function replacementFor(random: RandomBytes, stored: StoredKey, now: number) {
  return newKey(random, {
    produit: stored.produit,
    kind: stored.kind,
    sites: stored.sites,
    expiresAt: stored.expiresAt,
    createdAt: now,
  });
}

export const domainView = (domain: BoundDomain): DomainView => ({
  domain: domain.domain,
  firstSeen: formatQuand(domain.firstSeen),
  lastSeen: formatQuand(domain.lastSeen),
});
