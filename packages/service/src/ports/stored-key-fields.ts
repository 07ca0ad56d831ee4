import { KEY_KINDS, KEY_STATUSES } from '@licence/core';
import type { KeyKind, KeyStatus } from '@licence/core';
import type { KeyChangeInitiator } from './store-port.js';

const KEY_CHANGE_INITIATORS: readonly KeyChangeInitiator[] = ['operator', 'author', 'buyer'];

function isKeyKind(value: string): value is KeyKind {
  return (KEY_KINDS as readonly string[]).includes(value);
}

function isKeyStatus(value: string): value is KeyStatus {
  return (KEY_STATUSES as readonly string[]).includes(value);
}

/**
 * A key's kind as a store's row holds it. The schema's CHECK constraints already hold it; a value
 * outside them means a database edited by hand or by a newer build, and is refused rather than
 * guessed (docs/protocol.md#errors: a fault is a 5xx, never a verdict made up from bad data).
 */
export function storedKeyKind(keyId: string | number, kind: string): KeyKind {
  if (!isKeyKind(kind)) {
    throw new TypeError(
      `keys.kind of key ${keyId}: expected one of ${KEY_KINDS.join(', ')}, got ${JSON.stringify(kind)}`,
    );
  }
  return kind;
}

/** A key's status as a store's row holds it, refused as `storedKeyKind` refuses a kind. */
export function storedKeyStatus(keyId: string | number, status: string): KeyStatus {
  if (!isKeyStatus(status)) {
    throw new TypeError(
      `keys.status of key ${keyId}: expected one of ${KEY_STATUSES.join(', ')}, got ${JSON.stringify(status)}`,
    );
  }
  return status;
}

/** Who ended a key (StoredKey `endedBy`) as a store's row holds it, NULL as null; refused as a kind is. */
export function storedKeyEndedBy(keyId: string | number, endedBy: string | null): KeyChangeInitiator | null {
  if (endedBy === null) return null;
  const known = KEY_CHANGE_INITIATORS.find((initiator) => initiator === endedBy);
  if (known === undefined) {
    throw new TypeError(
      `keys.ended_by of key ${keyId}: expected one of ${KEY_CHANGE_INITIATORS.join(', ')} or NULL, got ${JSON.stringify(endedBy)}`,
    );
  }
  return known;
}

/**
 * A product's staging patterns (ProductRecord `staging`, docs/protocol.md#staging-hosts) as a
 * store's row holds them, already decoded (a JSON array, a PostgreSQL array): refused unless a
 * list of strings, as a kind is.
 */
export function storedStaging(productId: string, staging: unknown): readonly string[] {
  if (!Array.isArray(staging) || !staging.every((pattern) => typeof pattern === 'string')) {
    throw new TypeError(`products.staging of product ${productId}: expected a list of strings`);
  }
  return staging;
}
