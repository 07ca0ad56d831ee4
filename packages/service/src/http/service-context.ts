import type { VerdictSettings } from '@licence/core';
import type { CompiledTrustProxy } from './client-ip.js';
import type { Verifier } from '../ports/index.js';
import type { Clock } from '../ports/index.js';
import { HttpError } from './problem.js';
import type { ServiceOptions } from './service-types.js';

/** What every handler of the service gets: the ports, with options checked once at creation. */
export interface ServiceContext
  extends Pick<ServiceOptions, 'store' | 'rateLimiter' | 'clock' | 'signer' | 'logger' | 'random'> {
  /**
   * Checks the service's own signatures (its buyer links' tokens) on node:crypto, never core's pure
   * verifier: made once from `signer.publicKey` (node-verifier.ts).
   */
  readonly verifier: Verifier;
  readonly settings: VerdictSettings | undefined;
  readonly trust: CompiledTrustProxy | undefined;
  readonly blockedUserAgents: readonly RegExp[];
  /** SHA-256 of the admin token; null when the admin API is off. */
  readonly adminTokenHash: Buffer | null;
  /**
   * ServiceOptions `webhookAllowPrivate` (docs/protocol.md#webhooks), checked; absent is false.
   * Handed on to every KeyAdmin made from this context.
   */
  readonly webhookAllowPrivate?: boolean;
  /** ServiceOptions `webhooksPerAuthor` (docs/protocol.md#endpoints), checked; 10 when unset. */
  readonly webhooksPerAuthor?: number;
  /**
   * ServiceOptions `stagingHosts` (docs/protocol.md#staging-hosts), checked and normalised; absent
   * is none. Every verdict adds the key's own product's patterns to these.
   */
  readonly stagingHosts?: readonly string[];
  /** ServiceOptions `publicUrl` (docs/protocol.md#buyer-links), checked and normalised; null when unset. */
  readonly publicUrl: string | null;
  /** ServiceOptions `buyerTransfersPer30Days`, checked; 3 when unset. */
  readonly buyerTransfersPer30Days: number;
}

/** The clock in whole seconds, as every stored time and `donnees` holds them. */
export function nowSeconds(clock: Pick<Clock, 'now'>): number {
  return Math.floor(clock.now() / 1000);
}

/**
 * Runs a store (or rate limiter) call; a rejection is an HttpError 503, never a signed refusal
 * (docs/protocol.md#errors: an internal fault is a 5xx). The cause is kept for the error log line.
 * The admin operations use admin's `callOrStoreUnavailable`, whose AdminError the admin routes answer.
 */
export async function callOr503<T>(call: () => Promise<T>, what = 'the key store'): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new HttpError('service-unavailable', `${what} is unavailable; try again later`, { cause: error });
  }
}
