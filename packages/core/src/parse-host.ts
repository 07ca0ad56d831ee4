import { normalizeHost } from './normalize-host.js';
import { registrableDomain } from './registrable-domain.js';
import { isTestHost } from './test-host.js';
import { ValidationError } from './validation-error.js';

/** Everything the verdict needs to know about the host a request names (DESIGN 2.2, 2.3). */
export interface HostInfo {
  /** The normalised host, echoed in `donnees.hote`. */
  readonly hote: string;
  /**
   * The registrable domain a licence binds to (tldts, private suffixes on), a public IP address
   * itself, or null where there is none (`localhost`, a private IP, a single label).
   */
  readonly registrable: string | null;
  /** A test or staging host (DESIGN 2.3): never consumes an activation, answers `essai` true. */
  readonly test: boolean;
}

/**
 * The `url` field to a `HostInfo`: normalise (DESIGN 2.2), find the registrable domain, decide
 * test-ness (DESIGN 2.3, checked first, so `intranet` and `fr` pass), then refuse a host that
 * names no site: one that is itself a public suffix (`co.uk`, `myshopify.com`, `github.io`).
 * Every refusal is a `ValidationError` on field `url` (a 400 for the service).
 */
export function parseHost(url: unknown): HostInfo {
  const hote = normalizeHost(url);
  const registrable = registrableDomain(hote);
  const test = isTestHost(hote, registrable);
  if (!test && registrable === null) {
    throw new ValidationError('url', `url: host is a public suffix (${hote}) and names no site`);
  }
  return { hote, registrable, test };
}
