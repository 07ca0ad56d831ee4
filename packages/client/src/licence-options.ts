import { resolve } from 'node:path';
import {
  isValidationError,
  keyProblem,
  normalizeKey,
  parseHost,
  toPublicKey,
  typeName,
  validateProduit,
  ValidationError,
} from '@licence/core';
import type { KeyProblem } from '@licence/core';
import { DEFAULT_TIMEOUT_MS } from './call-service.js';
import type { FetchLike } from './call-service.js';
import { serviceEndpoint } from './service-endpoint.js';
import type { CryptoChoice } from './signature-verifier.js';
import { defaultUserAgent } from './version.js';

/** What `new Licence(...)` takes. */
export interface LicenceOptions {
  /**
   * The buyer's key as entered (spaces and dashes are fine). Read it from the product's settings,
   * never hard-code it. Missing, empty or not a licence key never throws: `valide()` is then false
   * without a call, in state `no_key` (docs/protocol.md#no-usable-key).
   */
  readonly cle?: string | null | undefined;
  /** A writable folder that deploys do not wipe; created (mode 0700) if missing. */
  readonly cacheDir: string;
  /** The product's id at the service (`[a-z0-9._-]{1,64}`, docs/protocol.md#product-and-nonce). */
  readonly produit: string;
  /** The service's Ed25519 public keys (32 raw bytes, base64 or bytes); more than one during a key rotation. */
  readonly publicKeys: readonly (string | Uint8Array)[];
  /** The licence service: its base address (`/api/licence` is added) or the endpoint itself. */
  readonly url: string;
  /** The site the product runs on: a host name or a URL (`https://www.exemple.fr/shop` is `exemple.fr`). */
  readonly host: string;
  /** Default: `<produit> (@licence/client <version>)`. */
  readonly userAgent?: string | undefined;
  /** Default: the global `fetch`. */
  readonly fetch?: FetchLike | undefined;
  /** Default: the system clock. Milliseconds since the epoch, as `Date.now()`. */
  readonly clock?: { now(): number } | undefined;
  /** The HTTP timeout in milliseconds (docs/protocol.md#limits: 6000, the default). */
  readonly timeoutMs?: number | undefined;
  /** Default 'auto': node:crypto where the runtime has Ed25519 in it, else noble. */
  readonly crypto?: CryptoChoice | undefined;
  /** Told about a fault that does not stop the product (a cache folder that cannot be written...). Default: console.warn. */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** The options once checked and normalised. */
export interface LicenceConfig {
  /** The normalised key (docs/protocol.md#key-normalisation), "" when unusable. Secret: never logged, never in a message or a file name. */
  readonly cle: string;
  /** Why the key handed cannot be used, or null (docs/protocol.md#no-usable-key). */
  readonly keyProblem: KeyProblem | null;
  readonly cacheDir: string;
  readonly produit: string;
  readonly publicKeys: readonly Uint8Array[];
  readonly endpoint: string;
  /**
   * The site's host exactly as configured, sent as `url`: the service normalises what it receives,
   * and normalising is not idempotent (docs/protocol.md#hosts-in-clients).
   */
  readonly host: string;
  /** Its normalisation, once (docs/protocol.md#host-normalisation): every verdict must name it, and the cache file is keyed by it. */
  readonly hote: string;
  readonly userAgent: string;
  readonly fetch: FetchLike;
  readonly clock: { now(): number };
  readonly timeoutMs: number;
  readonly crypto: CryptoChoice;
  readonly onError: (error: Error) => void;
}

/** The longest timeout accepted: a minute is already far beyond what a page can wait. */
export const MAX_TIMEOUT_MS = 60_000;

const CRYPTO_CHOICES: readonly unknown[] = ['auto', 'node', 'noble'];

/**
 * Checks every option where it enters (CONTRIBUTING.md#code-style: exact messages), so a misconfigured product fails
 * at start-up, not on the day its cache first expires. Every failure is a core `ValidationError`
 * naming the option; no message ever holds the key.
 */
export function checkOptions(options: LicenceOptions): LicenceConfig {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ValidationError('options', `options: expected an object, got ${typeName(options)}`);
  }
  const produit = checkProduit(options.produit);
  return {
    ...checkKey(options.cle),
    cacheDir: checkCacheDir(options.cacheDir),
    produit,
    publicKeys: checkPublicKeys(options.publicKeys),
    endpoint: serviceEndpoint(options.url),
    ...checkHost(options.host),
    userAgent: checkUserAgent(options.userAgent, produit),
    fetch: checkFetch(options.fetch),
    clock: checkClock(options.clock),
    timeoutMs: checkTimeout(options.timeoutMs),
    crypto: checkCrypto(options.crypto),
    onError: checkOnError(options.onError),
  };
}

function required(field: string, what: string): ValidationError {
  return new ValidationError(field, `${field}: required: ${what}`);
}

/**
 * The buyer's key is the buyer's input, not a constant of the developer's: whatever it holds, it
 * never throws (docs/protocol.md#no-usable-key). Usable, it is normalised
 * (docs/protocol.md#key-normalisation); otherwise core says why, and `valide()` answers `no_key`.
 */
function checkKey(cle: unknown): { readonly cle: string; readonly keyProblem: KeyProblem | null } {
  const problem = keyProblem(cle);
  return problem === null ? { cle: normalizeKey(cle), keyProblem: null } : { cle: '', keyProblem: problem };
}

function checkCacheDir(cacheDir: unknown): string {
  if (cacheDir === undefined) throw required('cacheDir', 'a writable folder that deploys do not wipe');
  if (typeof cacheDir !== 'string')
    throw new ValidationError('cacheDir', `cacheDir: expected a string, got ${typeName(cacheDir)}`);
  if (cacheDir.trim() === '') throw new ValidationError('cacheDir', 'cacheDir: is empty');
  if (cacheDir.includes('\0')) throw new ValidationError('cacheDir', 'cacheDir: holds a NUL character');
  // Resolved once, so a later process.chdir() does not move the cache.
  return resolve(cacheDir);
}

function checkProduit(produit: unknown): string {
  if (produit === undefined) throw required('produit', 'the product id the service knows (a-z, 0-9, ".", "_" and "-")');
  return validateProduit(produit) ?? '';
}

function checkPublicKeys(publicKeys: unknown): Uint8Array[] {
  if (publicKeys === undefined) throw required('publicKeys', "the service's Ed25519 public keys (32 bytes, base64)");
  if (!Array.isArray(publicKeys) || publicKeys.length === 0) {
    throw new ValidationError(
      'publicKeys',
      `publicKeys: expected a non-empty array of public keys (32 bytes, base64), got ${typeName(publicKeys)}`,
    );
  }
  return publicKeys.map((key: unknown, index) => {
    const field = `publicKeys[${index}]`;
    if (typeof key !== 'string' && !(key instanceof Uint8Array)) {
      throw new ValidationError(field, `${field}: expected base64 text or a Uint8Array, got ${typeName(key)}`);
    }
    // A copy: the caller may reuse its buffer.
    return toPublicKey(key, field).slice();
  });
}

/**
 * docs/protocol.md#host-normalisation through core's parseHost, whose `url:` messages are renamed
 * for this option: the host as given, to send, and its normalisation, to expect.
 */
function checkHost(host: unknown): { readonly host: string; readonly hote: string } {
  if (host === undefined) throw required('host', 'the site the product runs on, as a host name or a URL');
  try {
    const { hote } = parseHost(host);
    // parseHost takes nothing but a string: `host` is the very text the service will normalise.
    return { host: String(host), hote };
  } catch (error) {
    if (isValidationError(error)) throw new ValidationError('host', error.message.replace(/^url:/, 'host:'));
    throw error;
  }
}

function checkUserAgent(userAgent: unknown, produit: string): string {
  if (userAgent === undefined) return defaultUserAgent(produit);
  if (typeof userAgent !== 'string')
    throw new ValidationError('userAgent', `userAgent: expected a string, got ${typeName(userAgent)}`);
  if (userAgent.trim() === '')
    throw new ValidationError('userAgent', 'userAgent: is empty (the service refuses a request without one)');
  if (userAgent.length > 512)
    throw new ValidationError('userAgent', `userAgent: expected at most 512 characters, got ${userAgent.length}`);
  // RFC 9110 5.5: a field value is visible ASCII, spaces and tabs; anything else would be refused by fetch.
  if (!/^[\t\x20-\x7e]+$/.test(userAgent)) {
    throw new ValidationError('userAgent', 'userAgent: expected visible ASCII characters, spaces and tabs only');
  }
  return userAgent.trim();
}

function checkFetch(fetchOption: unknown): FetchLike {
  if (fetchOption === undefined) {
    const global: unknown = globalThis.fetch;
    if (typeof global !== 'function')
      throw new ValidationError('fetch', 'fetch: this runtime has no global fetch; pass one');
    // Bound: some runtimes' fetch refuses to run with another `this`.
    return (input, init) => globalThis.fetch(input, init);
  }
  if (typeof fetchOption !== 'function')
    throw new ValidationError('fetch', `fetch: expected a function, got ${typeName(fetchOption)}`);
  return fetchOption as FetchLike;
}

function checkClock(clock: unknown): { now(): number } {
  if (clock === undefined) return { now: () => Date.now() };
  if (typeof clock !== 'object' || clock === null || typeof (clock as { now?: unknown }).now !== 'function') {
    throw new ValidationError('clock', `clock: expected an object with a now() method, got ${typeName(clock)}`);
  }
  return clock as { now(): number };
}

function checkTimeout(timeoutMs: unknown): number {
  if (timeoutMs === undefined) return DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
    throw new ValidationError(
      'timeoutMs',
      `timeoutMs: expected an integer from 1 to ${MAX_TIMEOUT_MS} (milliseconds), got ${typeof timeoutMs === 'number' ? String(timeoutMs) : typeName(timeoutMs)}`,
    );
  }
  return timeoutMs;
}

function checkCrypto(crypto: unknown): CryptoChoice {
  if (crypto === undefined) return 'auto';
  if (!CRYPTO_CHOICES.includes(crypto)) {
    throw new ValidationError(
      'crypto',
      `crypto: expected "auto", "node" or "noble", got ${typeof crypto === 'string' ? JSON.stringify(crypto.slice(0, 20)) : typeName(crypto)}`,
    );
  }
  return crypto as CryptoChoice;
}

function checkOnError(onError: unknown): (error: Error) => void {
  if (onError === undefined) {
    // A library should not be silent about a fault its user must fix (an unwritable cache
    // folder makes every new process call the service), nor crash for it.
    return (error) => console.warn(`@licence/client: ${error.message}`);
  }
  if (typeof onError !== 'function')
    throw new ValidationError('onError', `onError: expected a function, got ${typeName(onError)}`);
  return onError as (error: Error) => void;
}
