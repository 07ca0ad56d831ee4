import { loadVectors } from './vector-file.js';

export interface SignatureKey {
  readonly warning: 'TEST ONLY';
  readonly seedText: string;
  /** 32-byte Ed25519 seed, base64. TEST ONLY. */
  readonly seed: string;
  /** 32-byte raw public key, base64. */
  readonly publicKey: string;
}

export type SignatureCase =
  | {
      readonly name: string;
      readonly kind: 'sign';
      readonly donnees: Record<string, unknown>;
      readonly canonical: string;
      readonly signature: string;
    }
  | {
      readonly name: string;
      readonly kind: 'verify';
      readonly envelope: unknown;
      readonly expect: { readonly hote: string; readonly produit?: string; readonly nonce?: string };
      readonly trustedPublicKeys: readonly string[];
      readonly valid: boolean;
    };

export interface SignatureVectors {
  readonly keys: { readonly primary: SignatureKey; readonly rotation: SignatureKey; readonly untrusted: SignatureKey };
  readonly cases: readonly SignatureCase[];
}

export const loadSignatureVectors = () =>
  loadVectors<SignatureCase>('signatures') as ReturnType<typeof loadVectors<SignatureCase>> & SignatureVectors;
