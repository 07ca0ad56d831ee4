import { loadVectors } from './vector-file.js';

/**
 * Does a normalised host match the staging patterns (docs/protocol.md#staging-hosts)? Without
 * `patterns` only the built-in ones apply; with them, the built-in ones and those.
 */
export interface StagingMatchCase {
  readonly name: string;
  /** Already normalised (docs/protocol.md#host-normalisation). */
  readonly hote: string;
  /** An operator's or a product's own patterns, already normalised. */
  readonly patterns?: readonly string[];
  readonly staging: boolean;
}

/** A pattern as given, and its normalised form (parseStagingPattern; core only). */
export interface StagingPatternAcceptedCase {
  readonly name: string;
  readonly pattern: string;
  readonly normalised: string;
}

/** A pattern that is refused (a ValidationError in core, a 400 for the service). */
export interface StagingPatternRejectedCase {
  readonly name: string;
  /** Any JSON value: a few cases are not even strings. */
  readonly pattern: unknown;
  readonly rejected: true;
}

export type StagingPatternCase = StagingPatternAcceptedCase | StagingPatternRejectedCase;
export type StagingCase = StagingMatchCase | StagingPatternCase;

export const loadStagingVectors = () => loadVectors<StagingCase>('staging');
