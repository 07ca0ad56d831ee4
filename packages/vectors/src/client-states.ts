import { loadVectors } from './vector-file.js';
import type { VectorFile } from './vector-file.js';

/**
 * A verdict as it appears in the vectors (docs/protocol.md#verdict, #product-and-nonce). The twin of
 * core's `Donnees`, kept on purpose: this package is data and depends on no implementation.
 */
export interface ClientStateDonnees {
  readonly ok: boolean;
  readonly motif: string;
  readonly domaine: string;
  readonly essai: boolean;
  readonly quand: string;
  readonly emis: number;
  readonly revalider: number;
  readonly sursis: number;
  readonly hote: string;
  readonly produit?: string;
  readonly nonce?: string;
}

export interface ClientStateEnvelope {
  readonly donnees: ClientStateDonnees;
  readonly signature: string;
}

/** The cache file a client writes: one per (product, key, host). */
export interface ClientStateRecord {
  readonly envelope: ClientStateEnvelope | null;
  readonly failures: number;
  readonly retryAt: number;
}

export type ClientStateOutcome =
  | { readonly type: 'response'; readonly status: number; readonly body: unknown; readonly retryAfter?: string | null }
  | { readonly type: 'failure'; readonly reason: 'network' | 'timeout' };

export type ClientStateResult =
  | { readonly action: 'call' }
  | {
      readonly action: 'use';
      readonly state: 'fresh' | 'refreshed' | 'grace' | 'lapsed' | 'no_key';
      readonly donnees: ClientStateDonnees;
      readonly runs: boolean;
      readonly store: ClientStateRecord | null;
    };

export interface ClientStateCase {
  readonly name: string;
  readonly now: number;
  /** The parsed cache file, as read: a record, null, or garbage. Not trusted. */
  readonly cache: unknown;
  /** Absent: no call made yet. */
  readonly outcome?: ClientStateOutcome;
  /**
   * The site's host as the client is configured with it, sent as is as `url`; `expect.hote` is its
   * normalisation, once (docs/protocol.md#hosts-in-clients). Absent: `expect.hote` itself.
   */
  readonly host?: string;
  /**
   * The buyer's key as handed to the client, any JSON value (docs/protocol.md#no-usable-key).
   * Absent: a usable key; the case is about the cache.
   */
  readonly cle?: unknown;
  readonly expect: { readonly hote: string; readonly produit?: string; readonly nonce?: string };
  readonly result: ClientStateResult;
}

export interface ClientStateVectors extends VectorFile<ClientStateCase> {
  /** Raw 32-byte Ed25519 public keys, base64, trusted in every case. */
  readonly trustedPublicKeys: readonly string[];
}

export const loadClientStateVectors = () => loadVectors<ClientStateCase>('client-states') as ClientStateVectors;
