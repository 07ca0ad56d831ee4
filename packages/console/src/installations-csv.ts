import type { InstallationsView } from './api-types.js';
import { toCsv } from './csv.js';

/** The columns, named as the API's fields so the file reads the same in either language. */
export const INSTALLATIONS_HEADER = ['produit', 'hint', 'kind', 'status', 'domain', 'firstSeen', 'lastSeen'] as const;

/**
 * A product's installations as CSV: one record per bound domain, and one with empty domain columns
 * for a key bound to none, so every key appears.
 */
export function installationsCsv(view: InstallationsView): string {
  const rows = view.keys.flatMap((key) => {
    const head = [view.produit, key.hint, key.kind, key.status];
    if (key.domains.length === 0) return [[...head, null, null, null]];
    return key.domains.map((d) => [...head, d.domain, d.firstSeen, d.lastSeen]);
  });
  return toCsv(INSTALLATIONS_HEADER, rows);
}

/** `installations-<product>-<YYYY-MM-DD>.csv`, the date of `now` in UTC. */
export function installationsFileName(produit: string, now: Date): string {
  return `installations-${produit}-${now.toISOString().slice(0, 10)}.csv`;
}
