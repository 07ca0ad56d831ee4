/**
 * The verdict object `donnees` (docs/protocol.md#verdict, #product-and-nonce) and the signed
 * envelope around it. This is the only data the signature covers.
 */

/** Reasons for a refusal (docs/protocol.md#verdict). `reseau` is made by clients only. */
export const MOTIFS = [
  'autre_domaine',
  'transfert',
  'regeneration',
  'revocation',
  'expiree',
  'inconnue',
  'reseau',
] as const;

export type Motif = (typeof MOTIFS)[number];

export interface Donnees {
  readonly ok: boolean;
  /** A `Motif` when `ok` is false, "" when true. Typed as string: a client must accept reasons added later. */
  readonly motif: string;
  readonly domaine: string;
  readonly essai: boolean;
  /** ISO 8601 UTC to the second (`2026-11-22T10:14:00Z`) or "". */
  readonly quand: string;
  /** Seconds since the epoch at which the service answered; starts the grace period. */
  readonly emis: number;
  /** Seconds since the epoch before which a client must not ask again. */
  readonly revalider: number;
  /** Seconds the verdict may be kept while the service does not answer. */
  readonly sursis: number;
  readonly hote: string;
  /** Echoed only when the request carried it (docs/protocol.md#product-and-nonce). */
  readonly produit?: string;
  /** Echoed only when the request carried it (docs/protocol.md#product-and-nonce). */
  readonly nonce?: string;
}

/** The 200 body: `{"donnees": {...}, "signature": "<base64>"}` (docs/protocol.md#request). */
export interface SignedEnvelope {
  readonly donnees: Donnees;
  readonly signature: string;
}
