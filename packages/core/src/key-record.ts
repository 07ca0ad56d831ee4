import { checkInteger, checkNonEmptyStrings, checkNullableInteger, checkOneOf } from './field-checks.js';
import { MAX_QUAND_SECONDS } from './format-quand.js';
import { isRecord, typeName, ValidationError } from './validation-error.js';

/** Key kinds (docs/protocol.md#key-lifecycle): `buyer` binds N domains, `trial` is time-limited, `dev` runs anywhere. */
export const KEY_KINDS = ['buyer', 'trial', 'dev'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/** A key is `active` until replaced (`transfert`, `regeneration`) or killed (`revocation`). */
export const KEY_STATUSES = ['active', 'transfert', 'regeneration', 'revocation'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** Set only by parseKeyRecord: a `KeyRecord` is a record that passed it. */
declare const parsed: unique symbol;

interface KeyRecordFields {
  /**
   * Products this key opens: its own product, or for a dev key every product of its author
   * (the store resolves this).
   */
  readonly products: readonly string[];
  /** Number of registrable domains the key may bind (buyer default 1). */
  readonly sites: number;
  /** Bound registrable domains, in binding order. */
  readonly domains: readonly string[];
  readonly [parsed]: true;
}

/**
 * An active key has no end time; a replaced or revoked one says when (rule 3 of
 * docs/protocol.md#verdict dates the event in `quand`). `endedAt` in seconds.
 */
type KeyEnd =
  | { readonly status: 'active'; readonly endedAt: null }
  | { readonly status: Exclude<KeyStatus, 'active'>; readonly endedAt: number };

/**
 * Only trial keys are time-limited (docs/protocol.md#key-lifecycle), and a trial always has an end
 * (rule 4): a trial without one would run for ever, and an end on another kind would be silently
 * ignored. `expiresAt` in seconds.
 */
type KeyTerm =
  | { readonly kind: 'trial'; readonly expiresAt: number }
  | { readonly kind: Exclude<KeyKind, 'trial'>; readonly expiresAt: null };

/**
 * What the store knows of a key, as the verdict needs it, checked by parseKeyRecord: its times are
 * whole seconds that `quand` can show (format-quand.ts), so the verdict never throws on them.
 */
export type KeyRecord = KeyRecordFields & KeyEnd & KeyTerm;

/**
 * The `key` of a verdict request (docs/protocol.md#verdict): the store's record of a key, or null
 * for no such key (null in, null out). A record the rules refuse (an active key with an end time,
 * a trial without an end, a time beyond the year 9999) is a `ValidationError`, which the service
 * answers as a 500, never as a signed refusal (docs/protocol.md#binding, #errors). Fields it does
 * not know are dropped. Messages name the field and the rule; none carries a licence key (a record
 * holds none).
 */
export function parseKeyRecord(value: unknown): KeyRecord | null {
  if (value === null) return null;
  if (!isRecord(value)) {
    throw new ValidationError('key', `key: expected an object or null, got ${typeName(value)}`);
  }
  const kind = checkOneOf('key.kind', value.kind, KEY_KINDS);
  const status = checkOneOf('key.status', value.status, KEY_STATUSES);
  const endedAt = checkNullableInteger('key.endedAt', value.endedAt, 0, MAX_QUAND_SECONDS);
  const expiresAt = checkNullableInteger('key.expiresAt', value.expiresAt, 0, MAX_QUAND_SECONDS);
  const products = checkNonEmptyStrings('key.products', value.products);
  const sites = checkInteger('key.sites', value.sites, 0, Number.MAX_SAFE_INTEGER);
  const domains = checkNonEmptyStrings('key.domains', value.domains);
  const end = checkEnd(status, endedAt);
  const term = checkTerm(kind, expiresAt);
  // The one place a KeyRecord is made: every field above is checked.
  return { ...term, ...end, products, sites, domains } as KeyRecord;
}

function checkEnd(status: KeyStatus, endedAt: number | null): KeyEnd {
  if (status === 'active') {
    if (endedAt === null) return { status, endedAt };
    throw new ValidationError('key.endedAt', `key.endedAt: expected null for an active key, got ${String(endedAt)}`);
  }
  if (endedAt !== null) return { status, endedAt };
  throw new ValidationError(
    'key.endedAt',
    `key.endedAt: expected a number for a key with status "${status}", got null`,
  );
}

function checkTerm(kind: KeyKind, expiresAt: number | null): KeyTerm {
  if (kind === 'trial') {
    if (expiresAt !== null) return { kind, expiresAt };
    throw new ValidationError('key.expiresAt', 'key.expiresAt: expected a number for a trial key, got null');
  }
  if (expiresAt === null) return { kind, expiresAt };
  throw new ValidationError(
    'key.expiresAt',
    `key.expiresAt: expected null for a ${kind} key, got ${String(expiresAt)}`,
  );
}
