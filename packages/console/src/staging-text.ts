/**
 * A product's staging host patterns (docs/protocol.md#staging-hosts) as the console edits them: a
 * text box, one pattern a line. The patterns' rules (one `*` in the leftmost label, whole labels)
 * are the service's, which refuses a bad one with a 400 whose detail names it; the console only
 * splits the text, so it never holds a second copy of those rules.
 */

/**
 * The patterns typed, in order: one a line, a comma also separating them (an operator's
 * LICENCE_STAGING_HOSTS pasted as it is), each trimmed, blank ones dropped. An empty box is [],
 * which clears the product's list.
 */
export function stagingList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The stored patterns as the box shows them: one a line. */
export function stagingText(patterns: readonly string[]): string {
  return patterns.join('\n');
}
