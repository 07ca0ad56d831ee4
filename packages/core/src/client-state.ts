import { BACKOFF_MAX_SECONDS, failedCallDelay } from './backoff.js';
import { keyProblem } from './client-key.js';
import type { KeyProblem } from './client-key.js';
import type { Donnees, SignedEnvelope } from './donnees.js';
import type { SignatureVerifier } from './ed25519.js';
import { typeName, ValidationError } from './validation-error.js';
import { checkExpectation, checkTrustedPublicKeys, checkVerifier, verifyEnvelope } from './verify-envelope.js';

/**
 * The client's cache state machine (docs/protocol.md#states), as one pure step:
 * from what the cache file holds, what the last call returned (if any) and the time, to what the
 * product uses and what the client writes back. The TypeScript and PHP clients do the I/O (read
 * the file, lock, call with a 6 s timeout, write atomically); the decisions are all here, and
 * `client-states.json` pins them for both.
 */

/** What a client keeps in its one cache file per (product, key, host). */
export interface CacheRecord {
  /** The last verified envelope, or null when no call ever succeeded. */
  readonly envelope: SignedEnvelope | null;
  /** Consecutive failed calls. */
  readonly failures: number;
  /** Seconds since the epoch; no call before this (back-off). */
  readonly retryAt: number;
}

/** What the HTTP call gave: a response (any status), or no response at all. */
export type CallOutcome =
  | {
      readonly type: 'response';
      readonly status: number;
      /** The parsed JSON body, or null when there was none or it did not parse: data, not trusted. */
      readonly body: unknown;
      /** The raw `Retry-After` header, if any. */
      readonly retryAfter?: string | null;
    }
  | { readonly type: 'failure'; readonly reason: 'network' | 'timeout' };

/**
 * `fresh`: the cached verdict, before `revalider`. `refreshed`: the verdict this call returned.
 * `grace`: the cached verdict, kept because the service did not answer usefully (or the client is
 * in back-off). `lapsed`: no usable verdict; the product runs, with `motif` `reseau`. `no_key`: the
 * buyer has entered no licence key (`motif` `sans_cle`) or something that is none (`cle_invalide`);
 * nothing is called or written, and the product does not run (docs/protocol.md#no-usable-key).
 */
export type ClientState = 'fresh' | 'refreshed' | 'grace' | 'lapsed' | 'no_key';

export interface ClientStepInput {
  /** Seconds since the epoch. */
  readonly now: number;
  /** The parsed cache file as read from disk, or null: NOT trusted. */
  readonly cache: unknown;
  /** Absent: "may I use the cache or must I call?". */
  readonly outcome?: CallOutcome;
  readonly trustedPublicKeys: readonly (Uint8Array | string)[];
  /** `nonce`: the one sent with this call. */
  readonly expect: { readonly hote: string; readonly produit?: string; readonly nonce?: string };
  /**
   * The buyer's key as handed to the client, any value, when the client asks about it. One that is
   * no licence key (`keyProblem`) answers `no_key` before anything else: no call, no write.
   */
  readonly cle?: unknown;
  /**
   * The Ed25519 check for the cached envelope and the response (default: core's pure one). A
   * client plugs in node:crypto, or a memo that answers at once for bytes it already checked,
   * so a cache read again and again is not verified again and again (see `verifyEnvelope`).
   */
  readonly verify?: SignatureVerifier | undefined;
}

export type ClientStep =
  | { readonly action: 'call' }
  | {
      readonly action: 'use';
      readonly state: ClientState;
      readonly donnees: Donnees;
      /** Whether the product runs: `donnees.ok`, or true on `reseau` (a network failure never blocks). */
      readonly runs: boolean;
      /** The record to write, or null to leave the file as it is. */
      readonly store: CacheRecord | null;
    };

/**
 * One step of the client (docs/protocol.md#states).
 *
 * Without `outcome`: a fresh cached verdict is used; otherwise, during back-off, the cached
 * verdict is used in grace (or the verdict lapses) without a call; otherwise the answer is
 * `{action: 'call'}`. With `outcome`: a 2xx with a good envelope for this host, product and
 * nonce is stored and used; anything else is a failed call, which keeps the cached verdict in
 * grace (or lapses) and starts or lengthens the back-off.
 *
 * The cache file and the response are data: whatever they hold, this never throws for them.
 * Wrong arguments from the calling code throw a ValidationError.
 */
export function clientStep(input: ClientStepInput): ClientStep {
  const { now, trustedPublicKeys, expect, outcome } = checkInput(input);
  const problem = 'cle' in input ? keyProblem(input.cle) : null;
  if (problem !== null) return use('no_key', madeUpDonnees(now, expect, problem), null);
  const options = input.verify === undefined ? {} : { verify: input.verify };
  // A cached verdict must name this host and product; the nonce of the call that fetched it is
  // not checked: it belongs to an old call (docs/protocol.md#product-and-nonce, #cache).
  const cachedExpect =
    expect.produit === undefined ? { hote: expect.hote } : { hote: expect.hote, produit: expect.produit };
  const record = readCacheRecord(input.cache, trustedPublicKeys, cachedExpect, options);
  const cached = record?.envelope ?? null;

  if (outcome === undefined) {
    if (cached !== null && cached.donnees.revalider > now) {
      return use('fresh', cached.donnees, null);
    }
    if (record !== null && now < record.retryAt) {
      // A retryAt beyond the longest back-off comes from a tampered file or a clock that went
      // back: it is cut to one hour and written so, else the cut would move with the clock and
      // the client would never call again.
      const limit = now + BACKOFF_MAX_SECONDS;
      const store = record.retryAt > limit ? { envelope: cached, failures: record.failures, retryAt: limit } : null;
      return fallBack(cached, now, expect, store);
    }
    return { action: 'call' };
  }

  if (
    outcome.type === 'response' &&
    isSuccess(outcome.status) &&
    verifyEnvelope(outcome.body, trustedPublicKeys, expect, options)
  ) {
    const { donnees, signature } = outcome.body;
    // Only the two signed members are kept, whatever else the body carried.
    return use('refreshed', donnees, { envelope: { donnees, signature }, failures: 0, retryAt: 0 });
  }

  // Any other answer is a failed call (docs/protocol.md#states): non-2xx, 429, transport
  // failure, timeout, a missing or bad signature, the wrong host, product or nonce.
  const failures = Math.min((record?.failures ?? 0) + 1, Number.MAX_SAFE_INTEGER);
  const delay =
    outcome.type === 'response'
      ? failedCallDelay({ failures, now, status: outcome.status, retryAfter: outcome.retryAfter })
      : failedCallDelay({ failures, now });
  return fallBack(cached, now, expect, { envelope: cached, failures, retryAt: now + delay });
}

/** Grace with a cached verdict still inside `emis + sursis`, else lapsed (docs/protocol.md#states). */
function fallBack(
  cached: SignedEnvelope | null,
  now: number,
  expect: ClientStepInput['expect'],
  store: CacheRecord | null,
): ClientStep {
  if (cached !== null && cached.donnees.emis + cached.donnees.sursis > now) {
    // The cached verdict as it is: a cached signed refusal still stops the product.
    return use('grace', cached.donnees, store);
  }
  return use('lapsed', madeUpDonnees(now, expect, 'reseau'), store);
}

/**
 * The verdict a client makes up (docs/protocol.md#states): `reseau` when it has none left, which
 * the product runs on, or why it has no key to ask with. It is not signed and never stored.
 */
function madeUpDonnees(now: number, expect: ClientStepInput['expect'], motif: 'reseau' | KeyProblem): Donnees {
  const donnees: Donnees = {
    ok: false,
    motif,
    domaine: '',
    essai: false,
    quand: '',
    emis: now,
    revalider: now,
    sursis: 0,
    hote: expect.hote,
  };
  return expect.produit === undefined ? donnees : { ...donnees, produit: expect.produit };
}

function use(state: ClientState, donnees: Donnees, store: CacheRecord | null): ClientStep {
  // Only a signed refusal stops a product; `reseau` never does (docs/protocol.md#overview).
  const runs = state === 'lapsed' ? true : donnees.ok;
  return { action: 'use', state, donnees, runs, store };
}

function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

/**
 * The cache file, if it is a well-formed record whose envelope (when not null) verifies for this
 * host and product; otherwise null, as if there were no file (docs/protocol.md#cache: a stored copy
 * whose signature or host does not match is ignored). A record whose envelope fails is ignored whole,
 * back-off included: its counters are no more trustworthy than its verdict. Unknown members are
 * ignored, so a later client may add some.
 *
 * Exported so that a client can tell which envelope of its cache `clientStep` accepts (the
 * TypeScript client keeps the time it received it beside it); `clientStep` calls it itself.
 * Whatever the cache holds, this never throws; `verifyEnvelope` checks the other arguments.
 */
export function readCacheRecord(
  cache: unknown,
  trustedPublicKeys: readonly (Uint8Array | string)[],
  expect: { readonly hote: string; readonly produit?: string },
  options: { readonly verify?: SignatureVerifier | undefined } = {},
): CacheRecord | null {
  if (typeof cache !== 'object' || cache === null || Array.isArray(cache)) return null;
  const { envelope, failures, retryAt } = cache as Record<string, unknown>;
  if (!isCount(failures) || !isCount(retryAt)) return null;
  if (envelope === null) return { envelope: null, failures, retryAt };
  if (!verifyEnvelope(envelope, trustedPublicKeys, expect, options)) return null;
  return { envelope: { donnees: envelope.donnees, signature: envelope.signature }, failures, retryAt };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

const OUTCOME_TYPES: readonly unknown[] = ['response', 'failure'];
const FAILURE_REASONS: readonly unknown[] = ['network', 'timeout'];

/** A wrong tag is quoted (it comes from the calling code, never from a buyer); other values are typed. */
function name(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : typeName(value);
}

/** Programming errors of the caller, each with an exact message (CONTRIBUTING.md#code-style: inputs checked where they enter). */
function checkInput(input: ClientStepInput): ClientStepInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ValidationError('input', `input: expected an object, got ${typeName(input)}`);
  }
  const { now, trustedPublicKeys, expect, outcome } = input;
  if (typeof now !== 'number' || !Number.isSafeInteger(now) || now < 0) {
    throw new ValidationError(
      'now',
      `now: expected a non-negative integer (seconds), got ${typeof now === 'number' ? String(now) : typeName(now)}`,
    );
  }
  // Checked here, not only when an envelope is met, so a misconfigured client fails on its
  // first run rather than on the first day its cache holds something.
  checkTrustedPublicKeys(trustedPublicKeys);
  checkExpectation(expect);
  checkVerifier({ verify: input.verify }, 'input');
  if (outcome !== undefined) checkOutcome(outcome);
  return input;
}

function checkOutcome(outcome: CallOutcome): void {
  if (typeof outcome !== 'object' || outcome === null || Array.isArray(outcome)) {
    throw new ValidationError('outcome', `outcome: expected an object, got ${typeName(outcome)}`);
  }
  if (!OUTCOME_TYPES.includes(outcome.type)) {
    throw new ValidationError(
      'outcome.type',
      `outcome.type: expected "response" or "failure", got ${name(outcome.type)}`,
    );
  }
  if (outcome.type === 'failure') {
    if (!FAILURE_REASONS.includes(outcome.reason)) {
      throw new ValidationError(
        'outcome.reason',
        `outcome.reason: expected "network" or "timeout", got ${name(outcome.reason)}`,
      );
    }
    return;
  }
  const { status, retryAfter } = outcome;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
    throw new ValidationError(
      'outcome.status',
      `outcome.status: expected an HTTP status from 100 to 599, got ${typeof status === 'number' ? String(status) : typeName(status)}`,
    );
  }
  if (retryAfter !== undefined && retryAfter !== null && typeof retryAfter !== 'string') {
    throw new ValidationError(
      'outcome.retryAfter',
      `outcome.retryAfter: expected a string or null, got ${typeName(retryAfter)}`,
    );
  }
}
