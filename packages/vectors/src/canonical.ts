import { loadVectors } from './vector-file.js';

export type CanonicalCase =
  | { readonly name: string; readonly input: unknown; readonly canonical: string; readonly utf8Hex: string }
  | { readonly name: string; readonly input: unknown; readonly rejected: true };

export const loadCanonicalVectors = () => loadVectors<CanonicalCase>('canonical');
