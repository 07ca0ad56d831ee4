/**
 * docs/protocol.md#privacy, #signature, #administration: no licence key, signing key or admin
 * token in any log line. These two helpers let a test look for every spelling of a secret in what
 * a server logged.
 */

/** Every way a licence key could be written: as issued, normalised, lower case. */
export function keySpellings(formatted: string): string[] {
  const normalised = formatted.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  return [formatted, normalised, normalised.toLowerCase()];
}

/** The lines that hold any of `secrets` (expected: none). */
export function linesHolding(lines: readonly string[], secrets: readonly string[]): string[] {
  return lines.filter((line) => secrets.some((secret) => line.includes(secret)));
}
