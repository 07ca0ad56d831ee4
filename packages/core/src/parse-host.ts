import { normalizeHost } from './normalize-host.js';
import { registrableDomain } from './registrable-domain.js';
import { isTestHost } from './test-host.js';
import { ValidationError } from './validation-error.js';

/**
 * Everything the verdict needs to know about the host a request names
 * (docs/protocol.md#host-normalisation, #test-hosts).
 */
export interface HostInfo {
  /** The normalised host, echoed in `donnees.hote`. */
  readonly hote: string;
  /**
   * The registrable domain a licence binds to (tldts, private suffixes on), a public IP address
   * itself, or null where there is none (`localhost`, a private IP, a single label).
   */
  readonly registrable: string | null;
  /** A test or staging host (docs/protocol.md#test-hosts): never consumes an activation, answers `essai` true. */
  readonly test: boolean;
}

/**
 * The `url` field to a `HostInfo`: normalise (docs/protocol.md#host-normalisation), find the
 * registrable domain, decide test-ness (docs/protocol.md#test-hosts, checked first, so `intranet`
 * and `fr` pass), then refuse a host that names no site: one that is itself a public suffix
 * (`co.uk`, `myshopify.com`, `github.io`). Every refusal is a `ValidationError` on field `url` (a
 * 400 for the service).
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
