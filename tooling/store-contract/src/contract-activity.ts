import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '@licence/service';
import { dayOf, product, T0 } from './contract-context.js';
import type { ContractContext } from './contract-context.js';

/** The first second of the UTC day of T0. */
const DAY = dayOf(T0);
const MIDNIGHT = DAY * 86400;

/** Counts sorted by day, then outcome: the port answers them in any order. */
function sorted(counts: readonly Store.ActivityCount[]): Store.ActivityCount[] {
  return [...counts].sort((a, b) => a.day - b.day || a.outcome.localeCompare(b.outcome));
}

/**
 * The request log's outcomes and the per-day activity counts (ports.ts `logRequest`, `activity`,
 * `purgeRequestLog`; docs/protocol.md#activity, #privacy).
 */
export function activityContract(context: ContractContext): void {
  describe('activity (docs/protocol.md#activity)', () => {
    let store: Store;
    let keyId: string;

    beforeEach(async () => {
      store = context.store();
      await store.addProduct(product('theme'));
      await store.addProduct(product('plugin'));
      const inserted = await store.insertKey({
        hash: 'c'.repeat(64),
        hint: 'AC71',
        produit: 'theme',
        kind: 'dev',
        sites: 0,
        expiresAt: null,
        createdAt: T0 - 10 * 86400,
      });
      if (inserted.result !== 'created') throw new Error(`insertKey: expected created, got ${inserted.result}`);
      keyId = inserted.id;
    });

    /** Logs one verdict of the dev key (it opens both products) for `produit`. */
    function verdict(at: number, outcome: Store.VerdictOutcome, produit: string | null = 'theme'): Promise<void> {
      const entry: Store.RequestLogEntry = { at, keyId, host: 'a.fr', ip: '203.0.113.7', outcome, produit };
      return store.logRequest(entry);
    }

    it('records the outcome in the log line', async () => {
      await verdict(T0, 'ok');
      await verdict(T0 + 1, 'essai');
      await verdict(T0 + 2, 'autre_domaine');
      await store.logRequest({ at: T0 + 3, keyId: null, host: 'b.fr', ip: '::1', outcome: 'inconnue', produit: null });
      const rows = [...(await context.loggedRows())].sort((a, b) => a.at - b.at);
      expect(rows.map(({ at, outcome }) => ({ at, outcome }))).toEqual([
        { at: T0, outcome: 'ok' },
        { at: T0 + 1, outcome: 'essai' },
        { at: T0 + 2, outcome: 'autre_domaine' },
        { at: T0 + 3, outcome: 'inconnue' },
      ]);
    });

    it('counts verdicts per product, UTC day and outcome', async () => {
      await verdict(MIDNIGHT, 'ok');
      await verdict(MIDNIGHT + 86399, 'ok');
      await verdict(T0, 'essai');
      await verdict(T0, 'revocation');
      await verdict(MIDNIGHT - 1, 'ok');
      await verdict(T0, 'ok', 'plugin');
      expect(sorted(await store.activity('theme', DAY - 1, DAY))).toEqual([
        { day: DAY - 1, outcome: 'ok', count: 1 },
        { day: DAY, outcome: 'essai', count: 1 },
        { day: DAY, outcome: 'ok', count: 2 },
        { day: DAY, outcome: 'revocation', count: 1 },
      ]);
      expect(await store.activity('plugin', DAY - 1, DAY)).toEqual([{ day: DAY, outcome: 'ok', count: 1 }]);
    });

    it('counts a verdict with no product nowhere', async () => {
      await store.logRequest({ at: T0, keyId: null, host: 'b.fr', ip: '::1', outcome: 'inconnue', produit: null });
      await verdict(T0, 'inconnue', null);
      expect(await store.activity('theme', DAY - 400, DAY + 400)).toEqual([]);
      expect(await store.activity('plugin', DAY - 400, DAY + 400)).toEqual([]);
      expect(await context.loggedRows()).toHaveLength(2);
    });

    it('answers the range from fromDay to toDay, both included', async () => {
      for (const day of [DAY - 3, DAY - 2, DAY - 1, DAY]) await verdict(day * 86400 + 60, 'ok');
      const days = async (from: number, to: number): Promise<number[]> =>
        (await store.activity('theme', from, to)).map((count) => count.day).sort((a, b) => a - b);
      expect(await days(DAY - 2, DAY - 1)).toEqual([DAY - 2, DAY - 1]);
      expect(await days(DAY, DAY)).toEqual([DAY]);
      expect(await days(DAY - 365, DAY)).toEqual([DAY - 3, DAY - 2, DAY - 1, DAY]);
      expect(await days(DAY + 1, DAY + 30)).toEqual([]);
      expect(await store.activity('nothing-here', DAY - 365, DAY)).toEqual([]);
    });

    it('counts every one of many verdicts logged at once', async () => {
      await Promise.all(Array.from({ length: 50 }, (_, i) => verdict(T0 + i, i % 5 === 0 ? 'essai' : 'ok')));
      expect(sorted(await store.activity('theme', DAY, DAY))).toEqual([
        { day: DAY, outcome: 'essai', count: 10 },
        { day: DAY, outcome: 'ok', count: 40 },
      ]);
    });

    it('purges the counts of the days before the day of the cut, and counts only log lines', async () => {
      await verdict(MIDNIGHT - 2 * 86400 + 10, 'ok');
      await verdict(MIDNIGHT - 86400 + 10, 'ok');
      await verdict(MIDNIGHT - 86400 + 3600, 'expiree');
      await verdict(MIDNIGHT + 10, 'ok');
      // The cut falls inside day DAY - 1: its counts stay, whole, though one of its lines goes.
      expect(await store.purgeRequestLog(MIDNIGHT - 86400 + 50)).toBe(2);
      expect(sorted(await store.activity('theme', DAY - 3, DAY))).toEqual([
        { day: DAY - 1, outcome: 'expiree', count: 1 },
        { day: DAY - 1, outcome: 'ok', count: 1 },
        { day: DAY, outcome: 'ok', count: 1 },
      ]);
      // A cut at midnight: the day before goes, the day that starts at the cut stays.
      expect(await store.purgeRequestLog(MIDNIGHT)).toBe(1);
      expect(await store.activity('theme', DAY - 3, DAY)).toEqual([{ day: DAY, outcome: 'ok', count: 1 }]);
      expect(await context.loggedRows()).toHaveLength(1);
    });

    it('purges old counts of every product even when no log line is left to delete', async () => {
      await verdict(MIDNIGHT - 86400, 'ok');
      await verdict(MIDNIGHT - 86400, 'ok', 'plugin');
      expect(await store.purgeRequestLog(MIDNIGHT - 86400 + 1)).toBe(2);
      expect(await store.activity('theme', DAY - 1, DAY - 1)).toHaveLength(1);
      expect(await store.purgeRequestLog(MIDNIGHT + 1)).toBe(0);
      expect(await store.activity('theme', DAY - 1, DAY)).toEqual([]);
      expect(await store.activity('plugin', DAY - 1, DAY)).toEqual([]);
    });
  });
}
