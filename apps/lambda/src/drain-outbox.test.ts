import { describe, expect, it } from 'vitest';
import { DRAIN_MARGIN_MS, drainOutbox } from './drain-outbox.js';

/**
 * The loop alone, handed scripted rounds and a scripted clock: when it stops. The rounds of a real
 * deliverer on PostgreSQL, through the scheduled handler, are in test/webhooks-schedule.test.ts.
 */

const BUDGET = 15_000 + DRAIN_MARGIN_MS;

/** Rounds answering `made` in turn (then 0), counting how many ran. */
function scripted(made: readonly number[]) {
  let calls = 0;
  return {
    runOnce: () => Promise.resolve(made[calls++] ?? 0),
    calls: () => calls,
  };
}

describe('drainOutbox', () => {
  it('runs rounds until one makes no attempt, and sums the attempts', async () => {
    const rounds = scripted([2, 3, 1, 0, 7]);
    expect(await drainOutbox({ runOnce: rounds.runOnce, remainingMs: () => 60_000, roundBudgetMs: BUDGET })).toEqual({
      attempts: 6,
      rounds: 4,
    });
    expect(rounds.calls()).toBe(4);
  });

  it('an empty outbox: one round, no attempt', async () => {
    expect(
      await drainOutbox({ runOnce: scripted([]).runOnce, remainingMs: () => 60_000, roundBudgetMs: BUDGET }),
    ).toEqual({ attempts: 0, rounds: 1 });
  });

  it('starts no round with less than the budget left, though work remains', async () => {
    // 60 s, then 40 s, 20 s (exactly the budget: one more), 19.999 s left after the rounds.
    const left = [40_000, BUDGET, BUDGET - 1];
    let checks = 0;
    const rounds = scripted([1, 1, 1, 1, 1, 1]);
    const result = await drainOutbox({
      runOnce: rounds.runOnce,
      remainingMs: () => left[checks++] ?? 0,
      roundBudgetMs: BUDGET,
    });
    expect(result).toEqual({ attempts: 3, rounds: 3 });
    expect(checks).toBe(3);
  });

  it('always runs the first round, even with no time left (a Timeout shorter than a round still delivers)', async () => {
    const rounds = scripted([4, 4]);
    expect(await drainOutbox({ runOnce: rounds.runOnce, remainingMs: () => 0, roundBudgetMs: BUDGET })).toEqual({
      attempts: 4,
      rounds: 1,
    });
  });
});
