import { loadVectors } from './vector-file.js';

/** A long text written compactly: `text` repeated `times` times. */
export interface Repeat {
  readonly text: string;
  readonly times: number;
}

export type KeyCase =
  | {
      readonly name: string;
      readonly kind: 'normalise';
      readonly input?: unknown;
      readonly inputRepeat?: Repeat;
      readonly append?: string;
      readonly normalised?: string;
      readonly normalisedRepeat?: Repeat;
      readonly rejected?: true;
    }
  | { readonly name: string; readonly kind: 'generate'; readonly randomHex: string; readonly key: string };

export const loadKeyVectors = () => loadVectors<KeyCase>('keys');

/** The raw input of a normalise case, expanded. */
export function keyCaseInput(c: Extract<KeyCase, { kind: 'normalise' }>): unknown {
  if (c.inputRepeat === undefined) return c.input;
  return c.inputRepeat.text.repeat(c.inputRepeat.times) + (c.append ?? '');
}

/** The expected key of a normalise case, expanded, or null when it must be rejected. */
export function keyCaseExpected(c: Extract<KeyCase, { kind: 'normalise' }>): string | null {
  if (c.rejected === true) return null;
  if (c.normalisedRepeat !== undefined) return c.normalisedRepeat.text.repeat(c.normalisedRepeat.times);
  return c.normalised ?? null;
}
