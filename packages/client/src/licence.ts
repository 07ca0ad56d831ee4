import { asError, clientStep, isValidationError, readCacheRecord, typeName, ValidationError } from '@licence/core';
import type { CallOutcome, ClientState, ClientStep, Donnees, SignatureVerifier, SignedEnvelope } from '@licence/core';
import { join } from 'node:path';
import { cacheFileName, ensureCacheDir, readCacheFile, writeCacheFile } from './cache-file.js';
import type { StoredRecord } from './cache-file.js';
import { callService } from './call-service.js';
import { checkOptions } from './licence-options.js';
import type { LicenceConfig, LicenceOptions } from './licence-options.js';
import { acquireLock, lockExists } from './refresh-lock.js';
import type { RefreshLock } from './refresh-lock.js';
import { nextNonce } from './request-nonce.js';
import { isReceipt, serverTime } from './server-time.js';
import { chooseVerifier, memoized } from './signature-verifier.js';
import type { Verifier } from './signature-verifier.js';
import { LANGS, verdictMessage } from './verdict-message.js';
import type { Lang } from './verdict-message.js';

/** The verdict the product acts on, and where it came from (docs/protocol.md#states). */
export interface LicenceVerdict {
  /**
   * `fresh`: the cached verdict, before `revalider`. `refreshed`: what this call returned.
   * `grace`: the cached verdict, kept because the service did not answer usefully, the client is
   * in back-off, or another process is refreshing it. `lapsed`: none left; `motif` is `reseau`.
   * `no_key`: no usable key was handed (`motif` `sans_cle` or `cle_invalide`); nothing was called.
   */
  readonly state: ClientState;
  /** The signed verdict (made up, unsigned, when lapsed or no_key). */
  readonly donnees: Donnees;
  /** What `valide()` answered: `donnees.ok` (false when `no_key`), or true when lapsed (a network failure never blocks). */
  readonly runs: boolean;
}

/** Extra time, beyond one call's timeout, before a lock is judged stale (a holder also reads and writes a small file). */
export const LOCK_MARGIN_MS = 10_000;
/** How often a process with no verdict at all looks whether the refreshing process is done. */
export const LOCK_POLL_MS = 25;
/** How long, beyond one call's timeout, such a process waits for it (the holder also writes a file). */
export const LOCK_WAIT_MARGIN_MS = 1000;

interface Setup {
  readonly file: string;
  readonly lockFile: string;
  readonly verifier: Verifier;
  /** The verifier behind a memo of checks already made in this process. */
  readonly verify: SignatureVerifier;
}

/** The envelope of the cache that core accepted, and when this client received it. */
interface Known {
  readonly envelope: SignedEnvelope;
  readonly recu: number | null;
}

interface Read {
  readonly cache: unknown;
  readonly known: Known | null;
  readonly step: ClientStep;
}

/**
 * The licence of one product on one site under one key (docs/protocol.md#clients).
 *
 * ```ts
 * const licence = new Licence({ cle, cacheDir, produit: 'mon-theme', publicKeys: [PUBLIC_KEY],
 *   url: 'https://licences.example.com', host: 'boutique.exemple.fr' });
 * if (!(await licence.valide())) showNotice(licence.message('fr'));
 * ```
 *
 * Every decision is core's `clientStep`; this class does the I/O around it: the cache file,
 * the lock, the call with its timeout.
 */
export class Licence {
  /**
   * The site's normalised host (docs/protocol.md#host-normalisation), which every answer must name.
   * The service is sent the host as configured and normalises it itself, once
   * (docs/protocol.md#hosts-in-clients).
   */
  readonly hote: string;
  readonly #config: LicenceConfig;
  /** The key as handed, kept only when it is unusable, for core to say why (docs/protocol.md#no-usable-key). */
  readonly #unusableKey: unknown;
  #setup: Promise<Setup> | null = null;
  /** The envelope this process last accepted: the fast path of `valide()` while it is fresh. */
  #known: Known | null = null;
  /** The last cache content read or written, used when the disk fails. */
  #lastCache: unknown = null;
  /** A write failed: `#lastCache` is newer than the file. */
  #diskBehind = false;
  #pending: Promise<LicenceVerdict> | null = null;
  #calling = false;
  #verdict: LicenceVerdict | null = null;

  constructor(options: LicenceOptions) {
    this.#config = checkOptions(options);
    this.hote = this.#config.hote;
    this.#unusableKey = this.#config.keyProblem === null ? undefined : options.cle;
  }

  /**
   * True when the product may run here: a valid verdict, or no verdict reachable at all (a network
   * failure never blocks). False on a signed refusal, and when the buyer has entered no licence key
   * (`no_key`). Never rejects for the service's faults, the cache's or the key's; call it once per
   * request.
   */
  async valide(): Promise<boolean> {
    return (await this.#check()).runs;
  }

  /** True on a development key or a test or staging host: show a discreet notice. After `valide()`. */
  essai(): boolean {
    return this.#last('essai').donnees.essai;
  }

  /** A sentence for the buyer naming the domains and dating the event, in French or English. After `valide()`. */
  message(lang: Lang = 'fr'): string {
    if (!LANGS.includes(lang))
      throw new TypeError(
        `message: expected "fr" or "en", got ${typeof lang === 'string' ? JSON.stringify(lang.slice(0, 8)) : typeof lang}`,
      );
    return verdictMessage(this.#last('message'), lang);
  }

  /** The last verdict and its state, or null before the first `valide()`. */
  get verdict(): LicenceVerdict | null {
    return this.#verdict;
  }

  /** Which Ed25519 implementation checks signatures here (the runtime is probed once per process). */
  async cryptoName(): Promise<'node:crypto' | 'noble'> {
    return (await this.#prepared()).verifier.name;
  }

  #last(method: string): LicenceVerdict {
    if (this.#verdict === null) throw new Error(`${method}(): no verdict yet; await licence.valide() first`);
    return this.#verdict;
  }

  #prepared(): Promise<Setup> {
    this.#setup ??= (async () => {
      const { produit, cle, hote, cacheDir, crypto } = this.#config;
      const name = await cacheFileName(produit, cle, hote);
      const verifier = await chooseVerifier(crypto);
      return {
        file: join(cacheDir, name),
        lockFile: join(cacheDir, `${name}.lock`),
        verifier,
        verify: memoized(verifier.verify),
      };
    })();
    return this.#setup;
  }

  async #check(): Promise<LicenceVerdict> {
    if (this.#config.keyProblem !== null) return this.#noKey();
    const setup = await this.#prepared();
    const known = this.#known;
    // The fast path: a verdict this process already accepted, still fresh. No disk, no signature.
    if (known !== null && known.envelope.donnees.revalider > this.#serverNow(known)) {
      const last = this.#verdict;
      if (last !== null && last.state === 'fresh' && last.donnees === known.envelope.donnees) return last;
      return this.#remember({ state: 'fresh', donnees: known.envelope.donnees, runs: known.envelope.donnees.ok });
    }
    if (this.#pending !== null) {
      // Another valide() of this process is calling: keep the cached verdict meanwhile
      // (docs/protocol.md#refresh-lock), or wait for that call when there is none.
      if (this.#calling && known !== null) return this.#remember(this.#fallBack(setup, known));
      return this.#pending;
    }
    const pending = this.#refresh(setup).finally(() => {
      this.#pending = null;
    });
    this.#pending = pending;
    return pending;
  }

  /**
   * No usable key (docs/protocol.md#no-usable-key): core's step says so before any I/O, so no
   * folder, file, lock or call is touched. Reported once per instance, never with the key.
   */
  #noKey(): LicenceVerdict {
    if (this.#verdict !== null) return this.#verdict;
    const { hote, produit, publicKeys, keyProblem } = this.#config;
    const step = clientStep({
      now: this.#localNow(),
      cache: null,
      cle: this.#unusableKey,
      trustedPublicKeys: publicKeys,
      expect: { hote, produit },
    });
    if (step.action !== 'use') throw new Error('an unusable key always answers use');
    this.#report(
      new Error(
        keyProblem === 'sans_cle'
          ? 'cle: no licence key entered yet: valide() is false until the buyer enters one'
          : 'cle: what was entered is not a licence key (25 letters and digits): valide() is false until the buyer corrects it',
      ),
    );
    return this.#remember({ state: step.state, donnees: step.donnees, runs: step.runs });
  }

  async #refresh(setup: Setup): Promise<LicenceVerdict> {
    try {
      return await this.#refreshOrThrow(setup);
    } catch (error) {
      // A wrong argument of the caller's (a clock that returns NaN) is a bug to fix: thrown.
      if (isValidationError(error)) throw error;
      // Any other fault (a file system gone odd) is not a signed refusal: it must not stop the
      // product (docs/protocol.md#errors: only a real verdict may). Reported, then lapsed.
      this.#report(error);
      return this.#remember(this.#fallBack(setup, null));
    }
  }

  async #refreshOrThrow(setup: Setup): Promise<LicenceVerdict> {
    const first = await this.#readStep(setup);
    if (first.step.action === 'use') return this.#settle(first.step, first.known, first.known?.recu ?? null);

    const lock = await this.#lock(setup);
    if (lock === null) return this.#whileAnotherRefreshes(setup, first.known);
    try {
      // Read again under the lock: the process that held it may just have written a new verdict,
      // and a second call for it is what the lock is there to prevent.
      const again = await this.#readStep(setup);
      if (again.step.action === 'use') return await this.#settle(again.step, again.known, again.known?.recu ?? null);
      return await this.#call(setup, again);
    } finally {
      // The verdict is had and written: a lock that cannot be removed is reported, not a reason
      // to throw that verdict away (the next process will find the lock stale).
      await lock.release().catch((error: unknown) => this.#report(error));
    }
  }

  /**
   * The refresh lock, or null when another process holds it. A folder where no lock can be
   * created (read-only, not a folder) gives a lock of this process only: the product still gets
   * its verdict, and only the coordination between processes is lost, which onError reports.
   */
  async #lock(setup: Setup): Promise<RefreshLock | null> {
    try {
      await ensureCacheDir(this.#config.cacheDir);
      return await acquireLock(setup.lockFile, { staleMs: this.#config.timeoutMs + LOCK_MARGIN_MS });
    } catch (error) {
      this.#report(error);
      return { release: async () => undefined };
    }
  }

  async #call(setup: Setup, read: Read): Promise<LicenceVerdict> {
    const { cle, host, hote, produit, endpoint, userAgent, timeoutMs, fetch } = this.#config;
    const nonce = nextNonce(this);
    // docs/protocol.md#product-and-nonce: our clients always send produit and a fresh nonce, and
    // check both. docs/protocol.md#hosts-in-clients: `url` is the host as configured, never `hote`:
    // the service normalises again, and www.www.x.fr would come back as x.fr.
    const body = JSON.stringify({ cle, url: host, produit, nonce });
    let outcome: CallOutcome;
    this.#calling = true;
    try {
      outcome = await callService({ fetch, endpoint, userAgent, timeoutMs, body });
    } finally {
      this.#calling = false;
    }
    const localNow = this.#localNow();
    const step = clientStep({
      now: serverTime(localNow, read.known?.envelope ?? null, read.known?.recu),
      cache: read.cache,
      outcome,
      trustedPublicKeys: this.#config.publicKeys,
      expect: { hote, produit, nonce },
      verify: setup.verify,
    });
    const recu = step.action === 'use' && step.state === 'refreshed' ? localNow : (read.known?.recu ?? null);
    return this.#settle(step, read.known, recu);
  }

  /**
   * Another process holds the lock: it is calling. With a verdict in the cache, keep it (grace,
   * or lapsed past its `sursis`) without waiting. With none, wait for that process's answer, up
   * to one call's timeout, rather than lapse at once or call a second time; then read its result.
   */
  async #whileAnotherRefreshes(setup: Setup, known: Known | null): Promise<LicenceVerdict> {
    if (known !== null) return this.#remember(this.#fallBack(setup, known));
    const deadline = Date.now() + this.#config.timeoutMs + LOCK_WAIT_MARGIN_MS;
    while (Date.now() < deadline && (await lockExists(setup.lockFile))) {
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    const after = await this.#readStep(setup);
    if (after.step.action === 'use') return this.#settle(after.step, after.known, after.known?.recu ?? null);
    return this.#remember(this.#fallBack(setup, null));
  }

  /** Reads the cache and asks core what to do with it, on the clock of the verdict it holds. */
  async #readStep(setup: Setup): Promise<Read> {
    const cache = await this.#read(setup);
    const { hote, produit, publicKeys } = this.#config;
    const record = readCacheRecord(cache, publicKeys, { hote, produit }, { verify: setup.verify });
    const recu = typeof cache === 'object' && cache !== null ? (cache as { recu?: unknown }).recu : undefined;
    const known = record?.envelope ? { envelope: record.envelope, recu: isReceipt(recu) ? recu : null } : null;
    const step = clientStep({
      now: serverTime(this.#localNow(), known?.envelope ?? null, known?.recu),
      cache,
      trustedPublicKeys: publicKeys,
      expect: { hote, produit },
      verify: setup.verify,
    });
    return { cache, known, step };
  }

  /** Writes what core says to write (with `recu` beside its envelope), then remembers the verdict. */
  async #settle(step: ClientStep, known: Known | null, recu: number | null): Promise<LicenceVerdict> {
    if (step.action !== 'use') throw new Error('a step to settle must be a use');
    if (step.store === null) {
      this.#known = known;
    } else {
      const record: StoredRecord = step.store.envelope !== null && recu !== null ? { ...step.store, recu } : step.store;
      await this.#write(record);
      this.#known = step.store.envelope === null ? null : { envelope: step.store.envelope, recu };
    }
    return this.#remember({ state: step.state, donnees: step.donnees, runs: step.runs });
  }

  /**
   * The verdict kept when no answer can be had now (the same rule as a failed call,
   * docs/protocol.md#states): the cached verdict in grace, or lapsed past its `sursis` or when
   * there is none. Nothing is written: no call failed.
   */
  #fallBack(setup: Setup, known: Known | null): LicenceVerdict {
    const { hote, produit, publicKeys } = this.#config;
    const step = clientStep({
      now: serverTime(this.#localNow(), known?.envelope ?? null, known?.recu),
      cache: known === null ? null : { envelope: known.envelope, failures: 0, retryAt: 0 },
      outcome: { type: 'failure', reason: 'network' },
      trustedPublicKeys: publicKeys,
      expect: { hote, produit },
      verify: setup.verify,
    });
    if (step.action !== 'use') throw new Error('a step with an outcome always answers use');
    return { state: step.state, donnees: step.donnees, runs: step.runs };
  }

  async #read(setup: Setup): Promise<unknown> {
    if (this.#diskBehind) return this.#lastCache;
    try {
      this.#lastCache = await readCacheFile(setup.file);
    } catch (error) {
      // Unreadable (no permission, a folder in its place): go on with what this process last
      // knew, so the back-off it recorded still holds.
      this.#report(error);
    }
    return this.#lastCache;
  }

  async #write(record: StoredRecord): Promise<void> {
    this.#lastCache = record;
    try {
      await ensureCacheDir(this.#config.cacheDir);
      await writeCacheFile((await this.#prepared()).file, record);
      this.#diskBehind = false;
    } catch (error) {
      // The verdict still holds in memory; without this flag the next read would bring back the
      // old file and, with it, a call on every valide() through an outage.
      this.#diskBehind = true;
      this.#report(error);
    }
  }

  #remember(verdict: LicenceVerdict): LicenceVerdict {
    this.#verdict = verdict;
    return verdict;
  }

  #report(error: unknown): void {
    try {
      this.#config.onError(asError(error));
    } catch {
      // A failing onError must not turn a kept verdict into a crash, and there is nowhere left
      // to report to: the product goes on with its verdict.
    }
  }

  #localNow(): number {
    const ms = this.#config.clock.now();
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      // The injected clock is the caller's code: a wrong value is a bug to fix, not a verdict.
      throw new ValidationError(
        'clock',
        `clock: now() must return milliseconds since the epoch, got ${typeof ms === 'number' ? String(ms) : typeName(ms)}`,
      );
    }
    return Math.floor(ms / 1000);
  }

  #serverNow(known: Known): number {
    return serverTime(this.#localNow(), known.envelope, known.recu);
  }
}
