import { loadVectors } from './vector-file.js';

/** A `url` that normalises to a host (docs/protocol.md#host-normalisation, #test-hosts). */
export interface HostAcceptedCase {
  readonly name: string;
  readonly url: string;
  /** The normalised host, as echoed in `donnees.hote`. */
  readonly hote: string;
  /** Registrable domain (PSL with private suffixes), the public IP itself, or null. */
  readonly registrable: string | null;
  /** A test or staging host (docs/protocol.md#test-hosts). */
  readonly test: boolean;
  /** Present (true) when `url` holds a non-ASCII character: clients without UTS #46 skip it. */
  readonly unicode?: true;
}

/** A `url` that is refused (a 400 for the service, a `ValidationError` in core). */
export interface HostRejectedCase {
  readonly name: string;
  readonly url: string;
  readonly rejected: true;
  /**
   * Present (true) when the host normalises fine and is refused only because it is itself a
   * public suffix: deciding that needs the Public Suffix List.
   */
  readonly publicSuffix?: true;
  /** Present (true) when `url` holds a non-ASCII character. */
  readonly unicode?: true;
}

export type HostCase = HostAcceptedCase | HostRejectedCase;

export const loadHostVectors = () => loadVectors<HostCase>('hosts');
