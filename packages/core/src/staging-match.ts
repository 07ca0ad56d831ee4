/**
 * Matching a host against staging patterns (docs/protocol.md#staging-hosts). Both sides are taken
 * as they are given: `hote` as normalizeHost makes it, the pattern as parseStagingPattern makes it
 * (lower-case, no trailing dot). Matching is on whole labels: the pattern's labels are compared with
 * the host's rightmost ones, so `*.flywheelstaging.com` never matches `notflywheelstaging.com`.
 */

/**
 * True when `hote` matches `pattern`: its rightmost labels match the pattern's, with any number of
 * labels in front. A `*` in the pattern's leftmost label stands for one or more characters of that
 * one label (`staging-*.kinsta.cloud`: `staging-abc.kinsta.cloud` yes, `staging-.kinsta.cloud`
 * and `mystaging-abc.kinsta.cloud` no). A pattern without `*` matches that host and the hosts below
 * it. Never throws: a host that is an IP address has no label a pattern can match.
 */
export function matchesStagingPattern(hote: string, pattern: string): boolean {
  // A cheap test first: whatever follows the pattern's last `*` (all of it when it has none) ends
  // every host it matches. Most hosts fail here, before any split: each verdict tries every
  // built-in pattern (test-host.ts), and this was a visible share of its CPU (the server's bench).
  if (!hote.endsWith(pattern.slice(pattern.lastIndexOf('*') + 1))) return false;
  const hostLabels = hote.split('.');
  const patternLabels = pattern.split('.');
  const offset = hostLabels.length - patternLabels.length;
  if (offset < 0) return false;
  return patternLabels.every((label, index) => labelMatches(hostLabels[offset + index] ?? '', label));
}

/** True when `hote` matches at least one of `patterns`. */
export function isStagingHost(hote: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => matchesStagingPattern(hote, pattern));
}

/** One label against one pattern label, whose one `*` (if any) stands for 1+ characters. */
function labelMatches(label: string, pattern: string): boolean {
  const star = pattern.indexOf('*');
  if (star === -1) return label === pattern;
  const prefix = pattern.slice(0, star);
  const suffix = pattern.slice(star + 1);
  return label.length > prefix.length + suffix.length && label.startsWith(prefix) && label.endsWith(suffix);
}
