import { normalizeHost } from './normalize-host.js';
import { registrableDomain } from './registrable-domain.js';
import { isTestHost } from './test-host.js';
import { ValidationError } from './validation-error.js';

/** Set only by parseHost: a `HostInfo` is a host that passed it. */
declare const parsed: unique symbol;

interface HostFields {
  /** The normalised host, echoed in `donnees.hote`. */
  readonly hote: string;
  readonly [parsed]: true;
}

/**
 * Everything the verdict needs to know about the host a request names
 * (docs/protocol.md#host-normalisation, #test-hosts):
 * - `registrable`: the registrable domain a licence binds to (tldts, private suffixes on), a public
 *   IP address itself, or null where there is none (`localhost`, a private IP, a single label);
 * - `test`: a test or staging host (docs/protocol.md#test-hosts), or one that matches a built-in
 *   staging pattern (docs/protocol.md#staging-hosts), which never consumes an activation and
 *   answers `essai` true. A host that is not one always has a registrable domain. A staging-pattern
 *   host keeps the registrable domain the PSL gives it (`a.kinsta.cloud`: `kinsta.cloud`), as every
 *   test host does: `registrable` says what the host is, `test` what the verdict does with it.
 */
export type HostInfo = HostFields &
  (
    | { readonly registrable: string | null; readonly test: true }
    | { readonly registrable: string; readonly test: false }
  );

/**
 * The `url` field to a `HostInfo`: normalise (docs/protocol.md#host-normalisation), find the
 * registrable domain, decide test-ness (docs/protocol.md#test-hosts and the built-in patterns of
 * #staging-hosts, checked first, so `intranet` and `fr` pass), then refuse a host that names no site: one that is itself a public suffix
 * (`co.uk`, `myshopify.com`, `github.io`). Every refusal is a `ValidationError` on field `url` (a
 * 400 for the service).
 */
export function parseHost(url: unknown): HostInfo {
  const hote = normalizeHost(url);
  const registrable = registrableDomain(hote);
  // The one place a HostInfo is made: test-ness decided, a registrable domain for any other host.
  if (isTestHost(hote, registrable)) return { hote, registrable, test: true } as HostInfo;
  if (registrable === null) {
    throw new ValidationError('url', `url: host is a public suffix (${hote}) and names no site`);
  }
  return { hote, registrable, test: false } as HostInfo;
}
