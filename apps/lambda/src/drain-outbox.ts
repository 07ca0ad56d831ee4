/**
 * docs/protocol.md#webhooks on AWS Lambda: nothing runs between invocations, so a scheduled
 * function drains the outbox, one deliverer round after another, while rounds still find work and
 * the invocation has time for one more.
 */

/**
 * Kept free after a round's longest attempt (the deliverer's timeout): the claim, the attempt's
 * record and the log line after it, each a query of at most 2 s (the store's statement timeout).
 * A round that starts with less than timeout + margin left could be cut by Lambda's own timeout
 * mid-attempt (harmless, its claim lapses and the delivery is tried again, but later).
 */
export const DRAIN_MARGIN_MS = 5000;

export interface DrainOptions {
  /** One deliverer round: claims what is due, tries each once, answers the attempts made. Never rejects. */
  readonly runOnce: () => Promise<number>;
  /** Milliseconds left in the invocation (Lambda's `context.getRemainingTimeInMillis`). */
  readonly remainingMs: () => number;
  /** The longest a round may take: the deliverer's per-attempt timeout plus `DRAIN_MARGIN_MS`. */
  readonly roundBudgetMs: number;
}

export interface DrainResult {
  /** Delivery attempts made, successful or not. */
  readonly attempts: number;
  readonly rounds: number;
}

/**
 * Rounds run one after the other, and each claims at most the deliverer's free slots
 * (LICENCE_WEBHOOK_CONCURRENCY, docs/protocol.md#delivery-on-aws-lambda): a run never has more
 * attempts in flight than the Koa server's deliverer would.
 *
 * Runs rounds until one makes no attempt (nothing is due: a delivery that just failed is due again
 * in 5 s at the earliest, so a receiver that is down ends the loop rather than spinning it) or
 * less than `roundBudgetMs` is left. The first round always runs: a function given a Timeout
 * shorter than one round still delivers, rather than never.
 */
export async function drainOutbox(options: DrainOptions): Promise<DrainResult> {
  let attempts = 0;
  let rounds = 0;
  do {
    const made = await options.runOnce();
    rounds += 1;
    attempts += made;
    if (made === 0) break;
  } while (options.remainingMs() >= options.roundBudgetMs);
  return { attempts, rounds };
}
