import type { Donnees, Motif } from './donnees.js';
import { formatQuand, MAX_QUAND_SECONDS } from './format-quand.js';
import type { HostInfo } from './parse-host.js';
import { validateNonce, validateProduit } from './request-fields.js';
import { isRecord, typeName, ValidationError } from './validation-error.js';

/** Key kinds (docs/protocol.md#key-lifecycle): `buyer` binds N domains, `trial` is time-limited, `dev` runs anywhere. */
export const KEY_KINDS = ['buyer', 'trial', 'dev'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/** A key is `active` until replaced (`transfert`, `regeneration`) or killed (`revocation`). */
export const KEY_STATUSES = ['active', 'transfert', 'regeneration', 'revocation'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** What the store knows of a key, as the verdict needs it. */
export interface KeyRecord {
  readonly kind: KeyKind;
  readonly status: KeyStatus;
  /** When the key was replaced or revoked (seconds); null while active. */
  readonly endedAt: number | null;
  /** End of a trial key (seconds); null for keys without an end. */
  readonly expiresAt: number | null;
  /**
   * Products this key opens: its own product, or for a dev key every product of its author
   * (the store resolves this).
   */
  readonly products: readonly string[];
  /** Number of registrable domains the key may bind (buyer default 1). */
  readonly sites: number;
  /** Bound registrable domains, in binding order. */
  readonly domains: readonly string[];
}

/** The configurable numbers of docs/protocol.md#verdict, in seconds. */
export interface VerdictSettings {
  /** `revalider` = `emis` + this. */
  readonly revalidateAfter: number;
  /** `sursis`. */
  readonly grace: number;
}

/** docs/protocol.md#verdict, #limits: a fresh verdict is reused for 24 h, kept 30 days in grace. */
export const DEFAULT_VERDICT_SETTINGS: VerdictSettings = Object.freeze({
  revalidateAfter: 86400,
  grace: 2592000,
});

export interface VerdictRequest {
  /** null: no such key. */
  readonly key: KeyRecord | null;
  readonly host: HostInfo;
  readonly produit?: string;
  readonly nonce?: string;
  /** Seconds, handed in: core never reads the clock. */
  readonly now: number;
  readonly settings?: VerdictSettings;
}

export interface VerdictDecision {
  readonly donnees: Donnees;
  /**
   * The registrable domain to bind (rule 8), or null. The store binds atomically and, if it loses a
   * race, the service decides again with the fresh record (docs/protocol.md#verdict: two first
   * calls racing from two domains on a one-domain key bind exactly one).
   */
  readonly bind: string | null;
}

/**
 * The verdict of docs/protocol.md#verdict: nine rules, in order, the first that matches wins. Pure:
 * the key record, the parsed host and the time are handed in, and binding is returned as an intent
 * for the store to carry out, never done here.
 *
 * The request is checked first, whole, so that malformed input is a `ValidationError` whichever
 * rule would have answered. The service checks `produit` and `nonce` (request-fields.ts) and
 * parses the host itself before calling, so an error here means a bad key record or a bug: an
 * internal fault, a 5xx, never a signed refusal (docs/protocol.md#errors).
 */
export function decideVerdict(request: VerdictRequest): VerdictDecision {
  const { key, host, produit, nonce, now, settings } = checkRequest(request);

  // Shared by every verdict. `produit` and `nonce` are echoed only when sent
  // (docs/protocol.md#product-and-nonce), on refusals too, so that without them `donnees` holds
  // exactly the nine standard fields.
  const common = {
    emis: now,
    revalider: now + settings.revalidateAfter,
    sursis: settings.grace,
    hote: host.hote,
    ...(produit === undefined ? {} : { produit }),
    ...(nonce === undefined ? {} : { nonce }),
  };
  // On a refusal, `essai` is false and nothing is bound.
  const refuse = (motif: Motif, domaine: string, quand = ''): VerdictDecision => ({
    donnees: { ok: false, motif, domaine, essai: false, quand, ...common },
    bind: null,
  });
  // On ok, `domaine` is the registrable domain that covers the host, or the host itself where it
  // has none (localhost, a private IP, a single label).
  const accept = (essai: boolean, bind: string | null): VerdictDecision => ({
    donnees: {
      ok: true,
      motif: '',
      domaine: host.registrable ?? host.hote,
      essai,
      quand: '',
      ...common,
    },
    bind,
  });

  // 1. No such key. `domaine` "" as the key has none to show.
  if (key === null) return refuse('inconnue', '');

  // 2. A key that does not open the product asked for looks exactly like no key at all: it must
  // not tell a caller which domains some other product's key is bound to
  // (docs/protocol.md#product-and-nonce).
  if (produit !== undefined && !key.products.includes(produit)) return refuse('inconnue', '');

  // Every later refusal names the key's bound domains, in binding order ("" when none).
  const bound = key.domains.join(', ');

  // 3. Replaced or killed: the motif is the status, `quand` dates the event. Before the test-host
  // rule: a revoked key on `localhost` answers `revocation` (docs/protocol.md#test-hosts).
  if (key.ended !== null) return refuse(key.ended.motif, bound, formatQuand(key.ended.at));

  // 4. A trial past its end. On the boundary, we decide that a trial ending at T runs while
  // now < T: `expiresAt` is the first second at which it no longer runs.
  if (key.expiresAt !== null && now >= key.expiresAt) {
    return refuse('expiree', bound, formatQuand(key.expiresAt));
  }

  // 5. A development key runs anywhere and binds nothing (docs/protocol.md#verdict).
  if (key.kind === 'dev') return accept(true, null);

  // 6. Test and staging hosts never consume an activation (docs/protocol.md#test-hosts).
  if (host.test) return accept(true, null);

  // 7. Already bound: any subdomain of a bound registrable domain is covered
  // (docs/protocol.md#host-normalisation).
  if (key.domains.includes(host.registrable)) return accept(false, null);

  // 8. A free slot: bind this registrable domain (one installation more).
  if (key.domains.length < key.sites) return accept(false, host.registrable);

  // 9. Bound elsewhere and full.
  return refuse('autre_domaine', bound);
}

// ---------------------------------------------------------------------------------------------
// Boundary checks. Each message names the field and the rule; none carries a licence key (a
// `KeyRecord` holds none) and string values are only quoted for the closed sets `kind` and
// `status`.

/** A checked host: a host that is not a test host always has a registrable domain. */
type CheckedHost =
  | { readonly hote: string; readonly registrable: string | null; readonly test: true }
  | { readonly hote: string; readonly registrable: string; readonly test: false };

/** A checked key record, with the status/time pairs resolved. */
interface CheckedKey {
  readonly kind: KeyKind;
  /** Set when the key was replaced or killed: the motif of rule 3 and its time. */
  readonly ended: { readonly motif: Exclude<KeyStatus, 'active'>; readonly at: number } | null;
  /** The end of a trial key; null for every other kind. */
  readonly expiresAt: number | null;
  readonly products: readonly string[];
  readonly sites: number;
  readonly domains: readonly string[];
}

interface CheckedRequest {
  readonly key: CheckedKey | null;
  readonly host: CheckedHost;
  readonly produit: string | undefined;
  readonly nonce: string | undefined;
  readonly now: number;
  readonly settings: VerdictSettings;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function checkRequest(request: unknown): CheckedRequest {
  if (!isRecord(request)) {
    throw new ValidationError('request', `request: expected an object, got ${typeName(request)}`);
  }
  const settings = checkSettings(request.settings);
  // `revalider` = now + revalidateAfter must itself be a safe integer (it is signed as one).
  const now = integer('now', request.now, 0, MAX_SAFE - settings.revalidateAfter);
  const produit = validateProduit(request.produit);
  const nonce = validateNonce(request.nonce);
  const host = checkHost(request.host);
  const key = checkKey(request.key);
  return { key, host, produit, nonce, now, settings };
}

function checkSettings(value: unknown): VerdictSettings {
  // Absent settings (or an explicit undefined from a JavaScript caller) take the defaults.
  if (value === undefined) return DEFAULT_VERDICT_SETTINGS;
  if (!isRecord(value)) {
    throw new ValidationError('settings', `settings: expected an object, got ${typeName(value)}`);
  }
  return {
    revalidateAfter: integer('settings.revalidateAfter', value.revalidateAfter, 1, MAX_SAFE),
    grace: integer('settings.grace', value.grace, 1, MAX_SAFE),
  };
}

function checkHost(value: unknown): CheckedHost {
  if (!isRecord(value)) {
    throw new ValidationError('host', `host: expected an object, got ${typeName(value)}`);
  }
  const hote = nonEmptyString('host.hote', value.hote);
  const registrable = value.registrable === null ? null : nonEmptyString('host.registrable', value.registrable, true);
  const test = value.test;
  if (typeof test !== 'boolean') {
    throw new ValidationError('host.test', `host.test: expected a boolean, got ${typeName(test)}`);
  }
  if (test) return { hote, registrable, test };
  // docs/protocol.md#host-normalisation: a host with no registrable domain is a 400 unless it is a
  // test host (#test-hosts), so a real host without one here means the caller skipped the host
  // parser.
  if (registrable === null) {
    throw new ValidationError(
      'host.registrable',
      'host.registrable: expected a registrable domain for a host that is not a test host, got null',
    );
  }
  return { hote, registrable, test };
}

function checkKey(value: unknown): CheckedKey | null {
  if (value === null) return null;
  if (!isRecord(value)) {
    throw new ValidationError('key', `key: expected an object or null, got ${typeName(value)}`);
  }
  const kind = oneOf('key.kind', value.kind, KEY_KINDS);
  const status = oneOf('key.status', value.status, KEY_STATUSES);
  // Times are bounded by what `quand` can show (format-quand.ts), so rule 3 and 4 never throw.
  const endedAt = nullableInteger('key.endedAt', value.endedAt, 0, MAX_QUAND_SECONDS);
  const expiresAt = nullableInteger('key.expiresAt', value.expiresAt, 0, MAX_QUAND_SECONDS);
  const products = nonEmptyStrings('key.products', value.products);
  const sites = integer('key.sites', value.sites, 0, MAX_SAFE);
  const domains = nonEmptyStrings('key.domains', value.domains);

  // An ended key must say when (rule 3 dates the event); a live one has no end time.
  let ended: CheckedKey['ended'] = null;
  if (status === 'active') {
    if (endedAt !== null) {
      throw new ValidationError('key.endedAt', `key.endedAt: expected null for an active key, got ${String(endedAt)}`);
    }
  } else {
    if (endedAt === null) {
      throw new ValidationError(
        'key.endedAt',
        `key.endedAt: expected a number for a key with status "${status}", got null`,
      );
    }
    ended = { motif: status, at: endedAt };
  }

  // Only trial keys are time-limited (docs/protocol.md#key-lifecycle), and a trial always has an
  // end (rule 4): a trial without one would run for ever, and an end on another kind would be
  // silently ignored.
  if (kind === 'trial' && expiresAt === null) {
    throw new ValidationError('key.expiresAt', 'key.expiresAt: expected a number for a trial key, got null');
  }
  if (kind !== 'trial' && expiresAt !== null) {
    throw new ValidationError(
      'key.expiresAt',
      `key.expiresAt: expected null for a ${kind} key, got ${String(expiresAt)}`,
    );
  }
  return { kind, ended, expiresAt, products, sites, domains };
}

function integer(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number') {
    throw new ValidationError(field, `${field}: expected a number, got ${typeName(value)}`);
  }
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(field, `${field}: expected an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

function nullableInteger(field: string, value: unknown, min: number, max: number): number | null {
  if (value === null) return null;
  if (typeof value !== 'number') {
    throw new ValidationError(field, `${field}: expected null or a number, got ${typeName(value)}`);
  }
  return integer(field, value, min, max);
}

function nonEmptyString(field: string, value: unknown, orNull = false): string {
  const expected = orNull ? 'null or a non-empty string' : 'a non-empty string';
  if (typeof value !== 'string') {
    throw new ValidationError(field, `${field}: expected ${expected}, got ${typeName(value)}`);
  }
  if (value === '') {
    throw new ValidationError(field, `${field}: expected ${expected}, got an empty string`);
  }
  return value;
}

function nonEmptyStrings(field: string, value: unknown): readonly string[] {
  if (!Array.isArray(value)) {
    throw new ValidationError(field, `${field}: expected an array, got ${typeName(value)}`);
  }
  const items: unknown[] = value;
  return items.map((item, index) => nonEmptyString(`${field}[${index}]`, item));
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) {
    const got = typeof value === 'string' ? JSON.stringify(value) : typeName(value);
    const expected = allowed.map((candidate) => `"${candidate}"`).join(', ');
    throw new ValidationError(field, `${field}: expected one of ${expected}, got ${got}`);
  }
  return found;
}
