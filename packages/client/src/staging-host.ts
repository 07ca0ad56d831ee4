import { BUILTIN_STAGING_HOSTS, isStagingHost as matchesAny } from '@licence/core';

/**
 * docs/protocol.md#staging-hosts: true when `hote` (a host as the service normalises it) matches one
 * of the built-in staging patterns of hosting providers, or one of `patterns` (a product's own
 * `staging` list, say, as the service keeps them). The service decides `essai` by the same rule on
 * its own; this lets a product tell a staging copy before any call, and agree with the PHP
 * client's `Licence::estHoteDeStaging` (both run packages/vectors/cases/staging.json).
 */
export function isStagingHost(hote: string, patterns: readonly string[] = []): boolean {
  return matchesAny(hote, BUILTIN_STAGING_HOSTS) || matchesAny(hote, patterns);
}
