import { loadVectors } from './vector-file.js';

/**
 * Case shape of `cases/verdicts.json`: the verdict decision of docs/protocol.md#verdict. The
 * types mirror `@licence/core`'s `VerdictRequest` and `Donnees` (restated here: this package
 * depends on no other, so that any implementation can read the data).
 */

/** The store's record of a key (`KeyRecord` in core); null in a case means no such key. */
export interface VerdictKeyRecord {
  readonly kind: 'buyer' | 'trial' | 'dev';
  readonly status: 'active' | 'transfert' | 'regeneration' | 'revocation';
  /** When the key was replaced or revoked (seconds); null while active. */
  readonly endedAt: number | null;
  /** End of a trial key (seconds); null for other kinds. */
  readonly expiresAt: number | null;
  readonly products: readonly string[];
  readonly sites: number;
  /** Bound registrable domains, in binding order. */
  readonly domains: readonly string[];
}

/** What the host parser hands the verdict (`HostInfo` in core). */
export interface VerdictHostInfo {
  readonly hote: string;
  readonly registrable: string | null;
  readonly test: boolean;
}

export interface VerdictCaseSettings {
  readonly revalidateAfter: number;
  readonly grace: number;
}

/** The expected signed object: the nine standard fields, plus `produit`/`nonce` only when sent. */
export interface VerdictDonnees {
  readonly domaine: string;
  readonly emis: number;
  readonly essai: boolean;
  readonly hote: string;
  readonly motif: string;
  readonly nonce?: string;
  readonly ok: boolean;
  readonly produit?: string;
  readonly quand: string;
  readonly revalider: number;
  readonly sursis: number;
}

export interface VerdictCase {
  readonly name: string;
  /** The row of docs/protocol.md#verdict (1-9) that answers; documentation, not an input. */
  readonly rule: number;
  readonly key: VerdictKeyRecord | null;
  readonly host: VerdictHostInfo;
  readonly produit?: string;
  readonly nonce?: string;
  /** Seconds since the epoch. */
  readonly now: number;
  /** Absent: the defaults (revalidateAfter 86400, grace 2592000). */
  readonly settings?: VerdictCaseSettings;
  readonly donnees: VerdictDonnees;
  /** The registrable domain to bind (rule 8), else null. */
  readonly bind: string | null;
}

export const loadVerdictVectors = () => loadVectors<VerdictCase>('verdicts');
