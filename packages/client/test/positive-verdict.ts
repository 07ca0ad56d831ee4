import type { Donnees } from '@licence/core';

/** How a positive verdict opens: valid, no reason, for the registrable domain exemple.fr. */
const POSITIVE = { ok: true, motif: '', domaine: 'exemple.fr', essai: false, quand: '' };

/**
 * A positive verdict for exemple.fr issued at `emis` (seconds), to ask again a day later, with 30
 * days of grace (docs/protocol.md#verdict), and `fields` changed or added: what the client's tests
 * and benchmarks sign with the TEST ONLY key.
 */
export function positiveVerdict(emis: number, fields: Partial<Donnees> = {}): Donnees {
  return { ...POSITIVE, emis, revalider: emis + 86_400, sursis: 2_592_000, hote: 'exemple.fr', ...fields };
}
