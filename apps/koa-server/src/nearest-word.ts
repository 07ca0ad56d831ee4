/**
 * "Did you mean": the known word nearest to a mistyped one, for the CLI's one usage line
 * (docs/protocol.md#the-licence-cli). The distance is the optimal string alignment distance
 * (Damerau-Levenshtein with adjacent transpositions, no substring edited twice): an insertion, a
 * deletion, a substitution or a swap of two neighbours is one edit, so `kye` is one edit from `key`
 * and `--prodiut` one from `--produit`. Plain Levenshtein (the npm libraries `fastest-levenshtein`
 * and `leven`) counts a swap as two, which is the typo people make most; hence these few lines
 * rather than a dependency (apps/koa-server/README.md#dependencies).
 */

/** The optimal string alignment distance between `a` and `b`, by UTF-16 code unit. */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance between a's first i characters and b's first j.
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i += 1) {
    const row = rows[i] ?? [];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate nearest to `word`, or undefined when none is near enough to be a typo of it: at
 * most one edit per three characters of `word` (at least one), so `kye` finds `key` but `x` finds
 * nothing. The comparison ignores case (`PURGE` finds `purge`); a tie goes to the earlier candidate.
 */
export function nearestWord(word: string, candidates: readonly string[]): string | undefined {
  const allowed = Math.max(1, Math.floor(word.length / 3));
  let best: { readonly candidate: string; readonly distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}
