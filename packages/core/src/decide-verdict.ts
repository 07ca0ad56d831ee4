import type { Donnees, Motif } from './donnees.js';
import { checkInteger } from './field-checks.js';
import { formatQuand } from './format-quand.js';
import type { KeyRecord } from './key-record.js';
import type { HostInfo } from './parse-host.js';
import type { Nonce, Produit } from './request-fields.js';
import { trialEnded } from './key-state.js';
import { isStagingHost } from './staging-match.js';
import { typeName, ValidationError } from './validation-error.js';

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

/**
 * The settings `checkVerdictSettings` has checked, by identity (the defaults among them): a caller
 * that holds them for a service's lifetime checks them once, when it starts, and decideVerdict takes
 * them as they are on every call. Frozen, so they cannot change after the check. A WeakSet holds no
 * settings alive and is no I/O (CONTRIBUTING.md#architecture).
 */
const CHECKED_SETTINGS = new WeakSet<VerdictSettings>([DEFAULT_VERDICT_SETTINGS]);

/**
 * Verdict settings checked once (docs/protocol.md#verdict: each a whole number of seconds, at
 * least 1): the defaults when absent, else a frozen copy that decideVerdict no longer re-checks. A
 * bad value is a `ValidationError` naming the field (`settings.grace: ...`), the same message
 * decideVerdict gives for unchecked settings.
 */
export function checkVerdictSettings(value: unknown): VerdictSettings {
  if (value === undefined) return DEFAULT_VERDICT_SETTINGS;
  if (typeof value !== 'object' || value === null) {
    throw new ValidationError('settings', `settings: expected an object, got ${typeName(value)}`);
  }
  const settings = Object.freeze(checkSettings(value));
  CHECKED_SETTINGS.add(settings);
  return settings;
}

/**
 * What the verdict is decided on. Each field comes from the parser that checks it: the key from
 * parseKeyRecord (null: no such key), the host from parseHost, `produit` and `nonce` from
 * validateProduit and validateNonce (absent or undefined when the request had none).
 */
export interface VerdictRequest {
  readonly key: KeyRecord | null;
  readonly host: HostInfo;
  readonly produit?: Produit | undefined;
  readonly nonce?: Nonce | undefined;
  /** Seconds, handed in: core never reads the clock. */
  readonly now: number;
  /** Absent or undefined: DEFAULT_VERDICT_SETTINGS. */
  readonly settings?: VerdictSettings | undefined;
  /**
   * Staging patterns beyond the built-in ones parseHost already applied
   * (docs/protocol.md#staging-hosts): the operator's LICENCE_STAGING_HOSTS and the staging list of
   * the key's product, each normalised by parseStagingPattern. Absent or undefined: none.
   */
  readonly staging?: readonly string[] | undefined;
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
 * The key, host, `produit` and `nonce` are trusted: their types say their parsers checked them.
 * Only the time and the settings, which no parser hands in, are checked here (settings that
 * `checkVerdictSettings` returned were checked once already and are not again); a
 * `ValidationError` for them is a bug of the caller, an internal fault (docs/protocol.md#errors).
 */
export function decideVerdict(request: VerdictRequest): VerdictDecision {
  const { key, host, produit, nonce } = request;
  const settings = settingsOf(request.settings);
  // `revalider` = now + revalidateAfter must itself be a safe integer (it is signed as one).
  const now = checkInteger('now', request.now, 0, Number.MAX_SAFE_INTEGER - settings.revalidateAfter);

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
  if (key.status !== 'active') return refuse(key.status, bound, formatQuand(key.endedAt));

  // 4. A trial past its end (trialEnded, the boundary keyState reads a key's state by too).
  if (trialEnded(key.expiresAt, now)) return refuse('expiree', bound, formatQuand(key.expiresAt));

  // 5. A development key runs anywhere and binds nothing (docs/protocol.md#verdict).
  if (key.kind === 'dev') return accept(true, null);

  // 6. Test and staging hosts never consume an activation (docs/protocol.md#test-hosts), nor do
  // hosts that match the operator's or the product's staging patterns
  // (docs/protocol.md#staging-hosts): after rule 5, before any binding.
  if (host.test || isStagingHost(host.hote, request.staging ?? [])) return accept(true, null);

  // 7. Already bound: any subdomain of a bound registrable domain is covered
  // (docs/protocol.md#host-normalisation).
  if (key.domains.includes(host.registrable)) return accept(false, null);

  // 8. A free slot: bind this registrable domain (one installation more).
  if (key.domains.length < key.sites) return accept(false, host.registrable);

  // 9. Bound elsewhere and full.
  return refuse('autre_domaine', bound);
}

/** Settings as decideVerdict uses them: checked once already (`checkVerdictSettings`), or checked now. */
function settingsOf(value: VerdictSettings | undefined): VerdictSettings {
  if (value === undefined) return DEFAULT_VERDICT_SETTINGS;
  return CHECKED_SETTINGS.has(value) ? value : checkSettings(value);
}

/** Each number of the settings, named in its fault. */
function checkSettings(value: { readonly revalidateAfter?: unknown; readonly grace?: unknown }): VerdictSettings {
  const max = Number.MAX_SAFE_INTEGER;
  return {
    revalidateAfter: checkInteger('settings.revalidateAfter', value.revalidateAfter, 1, max),
    grace: checkInteger('settings.grace', value.grace, 1, max),
  };
}
